"""daimyo: deck and army builder with print-and-play output."""

__version__ = "0.1.0"

SYSTEMS = ("senshiai", "kensei", "herocard", "senji", "satsuma")
