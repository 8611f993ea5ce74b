"""Rendering: layout math in millimetres (pure) and the PDF writers."""
