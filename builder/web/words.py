"""Words the pages show that other parts of daimyo give them: each game's words for what a list
holds (``troop``, ``copies``, ``Army``), its settings' labels, its entry types, and the print
options' choices. They stay English in the views and the JSON API (machine output); the
templates show them in the page's language with the ``|tr`` filter.

The English words are listed here so that the web builder's catalog holds them (a word the
catalogs lack shows in English, never fails)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from builder import state
from builder.i18n import N_, Text, _
from builder.web import printing

GAME_WORDS = (
    # the lists' titles and what an entry is, what its count counts
    N_("Army"),
    N_("Deck"),
    N_("Hero"),
    N_("Setup"),
    N_("card"),
    N_("cards"),
    N_("copy"),
    N_("copies"),
    N_("model"),
    N_("models"),
    N_("unit"),
    N_("units"),
    N_("player"),
    N_("players"),
    N_("AP"),
    N_("hero points"),
    N_("Hata-Jurushi"),
    N_("unit leader"),
    N_("leader"),
    # the type filter and the entries' types
    N_("Kind"),
    N_("Suit"),
    N_("Type"),
    N_("attack"),
    N_("attack-mod"),
    N_("base-attack"),
    N_("base-block"),
    N_("block-mod"),
    N_("special-attack"),
    N_("special-block"),
    N_("attribute: body"),
    N_("attribute: mind"),
    N_("attribute: x"),
    N_("other"),
    N_("terrain"),
    N_("creature"),
    N_("defense"),
    N_("escape"),
    N_("event"),
    N_("family"),
    N_("force"),
    N_("infantry"),
    N_("morale"),
    N_("mounted"),
    N_("province"),
    N_("reserves"),
    N_("samurai"),
    N_("samurai card"),
    N_("skirmisher"),
    N_("spiritual"),
    N_("troop"),
    N_("weapons"),
    N_("custom"),
    # Senji's seats
    N_("No provinces yet: add them from the catalog."),
    N_("Samurai cards and provinces from the catalog go to"),
    N_("no samurai card yet"),
    N_("provinces"),
    N_("samurai figure in"),
    N_("the player who needs one"),
    # the lists' settings
    N_("Hero point limit"),
    N_("Battle size (AP)"),
    N_("Clan"),
    N_("Commander"),
    N_("Occult rules"),
    N_("General"),
    N_("Side"),
    N_("Agreed deck size"),
    N_("Agreed deck size (optional)"),
    N_("choose a clan"),
    N_("Players"),
    N_("yes"),
    N_("no"),
    N_("(the list's hero)"),
    # what a list is made of (Kensei's composition)
    N_("leaders"),
    N_("melee %"),
    N_("ranged %"),
    N_("firearms %"),
    N_("cavalry %"),
    N_("skirmishers %"),
    N_("creatures %"),
)


@state.memo(
    "web.words", bound=None, lifetime=state.PROCESS, doc="the games' fixed words the pages translate (the code's)"
)
def known() -> frozenset[str]:
    """The words ``tr`` translates: the games' above and the print options' labels."""
    labels = (printing.PAPERS, printing.CARDS, printing.BLEEDS, printing.DUPLEX, printing.LAYOUTS)
    return frozenset((*GAME_WORDS, *(label for choices in labels for _v, label in choices), printing.SERVICES[0][1]))


def tr(word: Any) -> Any:
    """``word`` in the page's language when it is one of the words above (anything else, such as
    a name from a catalog, as it is: data is never translated)."""
    if isinstance(word, Text):  # a message kept with its words (a change's note, a total)
        return word.translated()
    return _(word) if isinstance(word, str) and word in known() else word


def tr_values(words: Mapping[str, Any]) -> dict[str, Any]:
    """A mapping's values in the page's language (a game's words by their use)."""
    return {k: tr(v) for k, v in (words or {}).items()}
