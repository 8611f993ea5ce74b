"""Sharing lists: text, Markdown, JSON, YAML and a one-line share code.

``builder.share.api`` is the entry point (``read_source``, ``parse_source_text``,
``export_doc``); ``canonical`` defines the form every format reads back to.
"""
