"""HeroCard: catalog models, card terms, rules and system."""
