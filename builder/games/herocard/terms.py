"""HeroCard's printed terms, free of pydantic: attributes, action types and card kinds (the
catalog models in ``builder.games.herocard.catalog`` and the rules core share them; a check from the
catalog cache imports no pydantic)."""

ATTRIBUTES = ("body", "mind", "x")
ATTRIBUTE_LETTER = {"body": "B", "mind": "M", "x": "X"}
ACTION_TYPES = ("fast", "restricted", "exclusive")
CARD_KINDS = ("base-attack", "attack-mod", "special-attack", "base-block", "block-mod", "special-block", "other")
KIND_LABEL = {
    "base-attack": "Attack",
    "attack-mod": "Attack Mod",
    "special-attack": "Special Attack",
    "base-block": "Block",
    "block-mod": "Block Mod",
    "special-block": "Special Block",
    "other": "Action",
}
VALUED_KINDS = ("base-attack", "attack-mod", "base-block", "block-mod")
