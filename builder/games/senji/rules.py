"""Rules core and checks for Senji (002_55c7e5ab3d1a76a7.txt).

Pure core (plain values in, plain values out):

* ``setup_for(players, catalog)``: excluded families and neutral provinces.
* ``dice_to_roll``, ``support_points``, ``contested_support``, ``combat_value``:
  a combat's value (lines 127-134).
* ``combat_losses``, ``honor_for_win``, ``resolve_combat``: who wins, the losses
  and the honor (lines 136-144).
* ``game_end(scores, ...)``: the end at 60 honor and the tie rule (lines 172-174).
* ``setup_sheet(lst, catalog, rules)``: what a printed setup sheet shows.

The list checks (``load_list``/``check``/``summary``) follow FORMATS.md 1.4.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from builder.catalog.frozen import model_fields
from builder.errors import ListError
from builder.findings import Finding, codes, error, info, warning
from builder.i18n import L_, N_
from builder.names import did_you_mean
from builder.rules.limits import limit

if TYPE_CHECKING:
    from builder.catalog.loader import Catalog
    from builder.systems.parts import HouseRules

SEED = "002_55c7e5ab3d1a76a7.txt"


def src(lines: str) -> str:
    return f"{SEED}:{lines}"


# -- constants (catalog values with the rulebook's numbers as defaults) -------------

DEFAULTS = {
    "players_min": 3,
    "players_max": 6,
    "starting_provinces": 3,
    "starting_units": 3,
    "starting_samurai": 1,
    "fortresses_per_province": 1,
    "units_per_province": 6,
    "units_per_player": 12,
    "units_per_fleet": 6,
    "provinces_per_player": 6,
    "board_provinces": 18,
    "dice": 9,
    "unit_points": 1,
    "samurai_die_points": 1,
    "symbol_points": 1,
    "dummy_support_value": 0,
    "attacker_honor_multiplier": 2,
    "defender_honor_multiplier": 1,
    "honor_goal": 60,
}


def constants(catalog: Catalog) -> dict:
    """Every number of the catalog's limits, combat and goal sections by name."""
    out = dict(DEFAULTS)
    m = catalog.model if catalog is not None else None
    for section in ("limits", "combat"):
        block = getattr(m, section, None) if m is not None else None
        if block is not None:
            for name, value in model_fields(block).items():
                out[name] = value.value
    goal = getattr(m, "goal", None) if m is not None else None
    if goal is not None:
        out["honor_goal"] = goal.honor.value
    return out


def limit_source(catalog: Catalog, name: str, default: str) -> str:
    m = catalog.model
    for section in ("limits", "combat"):
        block = getattr(m, section, None)
        if block is not None and name in model_fields(block):
            return getattr(block, name).source or default
    return default


# -- combat ------------------------------------------------------------------------


@dataclass(frozen=True)
class CombatSide:
    """One side of a combat as the table sees it after the dice are rolled.

    ``symbols_rolled``: rolled dice showing this family's symbol;
    ``support_value``: the value of the military support card played (0: own dummy);
    ``support_symbols``: rolled dice showing the supporting family's symbol.
    """

    units: int
    samurai: int = 0
    symbols_rolled: int = 0
    support_value: int = 0
    support_symbols: int = 0
    support_family: str | None = None


@dataclass(frozen=True)
class CombatValue:
    units: int
    samurai_dice: int
    rolled: int
    support: int

    @property
    def total(self) -> int:
        return self.units + self.samurai_dice + self.rolled + self.support


@dataclass(frozen=True)
class CombatResult:
    attacker: CombatValue
    defender: CombatValue
    winner: str | None  # "attacker", "defender", or None: a tie means a new combat round
    attacker_units_lost: int = 0
    defender_units_lost: int = 0
    attacker_samurai_lost: int = 0
    defender_samurai_lost: int = 0
    honor: int = 0  # honor gained by the winner

    @property
    def new_round(self) -> bool:
        return self.winner is None


def dice_to_roll(attacker_samurai: int, defender_samurai: int, dice: int = 9) -> int:
    """Dice rolled after one die per samurai is set to its family symbol (lines 129-130)."""
    return max(0, dice - attacker_samurai - defender_samurai)


def support_points(symbols: int, card_value: int) -> int:
    """Points from a military support card: the supporting family's symbols, up to its value (line 132)."""
    return max(0, min(symbols, card_value))


def contested_support(
    attacker_family: object, attacker_value: int, defender_family: object, defender_value: int, tie: str = "neither"
) -> tuple[bool, bool]:
    """Whether each side gets its support (line 133): seeking the same family, the higher card wins.

    ``tie`` (house rule ``support_tie``): neither | both | defender.
    """
    if attacker_family is None or defender_family is None or attacker_family != defender_family:
        return True, True
    if attacker_value > defender_value:
        return True, False
    if defender_value > attacker_value:
        return False, True
    if tie == "both":
        return True, True
    if tie == "defender":
        return False, True
    return False, False


def combat_value(
    side: CombatSide,
    with_support: bool = True,
    unit_points: int = 1,
    samurai_die_points: int = 1,
    symbol_points: int = 1,
) -> CombatValue:
    """1 per military unit, 1 per samurai die set to the family symbol, 1 per rolled symbol,
    plus the support card's points (lines 127-134)."""
    support = support_points(side.support_symbols, side.support_value) if with_support else 0
    return CombatValue(
        units=side.units * unit_points,
        samurai_dice=side.samurai * samurai_die_points,
        rolled=side.symbols_rolled * symbol_points,
        support=support,
    )


def combat_losses(
    winner_units: int, loser_units: int, loser_samurai: int = 0, samurai_count_as_losses: bool = False
) -> tuple[int, int]:
    """(winner's units lost, loser's loss counted in units).

    The loser loses all units and samurai; the winner loses as many military units
    as the loser lost, never more than it has (samurai survive) (lines 138-140).
    """
    loser_loss = loser_units + (loser_samurai if samurai_count_as_losses else 0)
    return min(winner_units, loser_loss), loser_loss


def honor_for_win(role: str, total_lost: int, attacker_multiplier: int = 2, defender_multiplier: int = 1) -> int:
    """Honor of the winner: attacker 2x, defender 1x the units lost on both sides (lines 141-143)."""
    if role not in ("attacker", "defender"):
        raise ValueError(f"role must be attacker or defender, not {role!r}")
    return (attacker_multiplier if role == "attacker" else defender_multiplier) * total_lost


def resolve_combat(
    attacker: CombatSide, defender: CombatSide, rules: dict | None = None, consts: dict | None = None
) -> CombatResult:
    """One combat round. A tie is a new round (reroll, replay cards): no losses, no honor."""
    rules = rules or {}
    c = dict(DEFAULTS, **(consts or {}))
    a_ok, d_ok = contested_support(
        attacker.support_family,
        attacker.support_value,
        defender.support_family,
        defender.support_value,
        rules.get("support_tie", "neither"),
    )
    kw = dict(
        unit_points=c["unit_points"], samurai_die_points=c["samurai_die_points"], symbol_points=c["symbol_points"]
    )
    av = combat_value(attacker, a_ok, **kw)
    dv = combat_value(defender, d_ok, **kw)
    if av.total == dv.total:
        return CombatResult(av, dv, None)
    winner = "attacker" if av.total > dv.total else "defender"
    w, l = (attacker, defender) if winner == "attacker" else (defender, attacker)
    count_samurai = bool(rules.get("samurai_count_as_losses", False))
    w_lost, l_loss = combat_losses(w.units, l.units, l.samurai, count_samurai)
    honor = honor_for_win(winner, w_lost + l_loss, c["attacker_honor_multiplier"], c["defender_honor_multiplier"])
    if winner == "attacker":
        return CombatResult(av, dv, winner, w_lost, l.units, 0, l.samurai, honor)
    return CombatResult(av, dv, winner, l.units, w_lost, l.samurai, 0, honor)


# -- end of the game -----------------------------------------------------------------


@dataclass(frozen=True)
class GameEnd:
    over: bool
    winners: tuple[str, ...] = ()
    extra_turn: bool = False  # a tie: play one additional full turn
    reason: str = ""

    @property
    def winner(self) -> str | None:
        return self.winners[0] if len(self.winners) == 1 else None


def game_end(scores: dict[str, int], goal: int = 60, extra_turns_played: int = 0, end_tie: str = "repeat") -> GameEnd:
    """Check the end of a turn (lines 4, 59, 172-174).

    The game ends when someone has ``goal`` honor or more; the highest honor wins.
    A tie plays one additional full turn, after which the highest score wins;
    ``end_tie`` (house rule) says what a tie after that turn does: ``repeat`` plays
    further turns, ``shared`` shares the victory.
    """
    if not scores:
        return GameEnd(False, reason="no players")
    top = max(scores.values())
    leaders = tuple(sorted(p for p, s in scores.items() if s == top))
    if extra_turns_played == 0 and top < goal:
        return GameEnd(False, reason=f"nobody has {goal} honor yet (highest {top})")
    if len(leaders) == 1:
        return GameEnd(True, leaders, reason=f"{leaders[0]} has the highest honor, {top}")
    if extra_turns_played == 0 or end_tie == "repeat":
        return GameEnd(
            False, (), True, reason=f"tie at {top} honor between {', '.join(leaders)}: play an additional full turn"
        )
    return GameEnd(True, leaders, reason=f"tie at {top} honor after the additional turn: shared victory")


# -- list documents --------------------------------------------------------------------


@dataclass
class Placed:
    province: str
    units: int
    samurai: bool
    fortresses: int
    loc: tuple
    entry: Any = None  # a catalog entry


@dataclass
class Player:
    name: str
    family: str
    samurai: str | None
    provinces: list[Placed]
    loc: tuple
    family_entry: Any = None
    samurai_entry: Any = None


@dataclass
class SenjiList:
    players: list[Player]
    agreed: dict = field(default_factory=dict)


_KEYS = ("players",)
_PLAYER_KEYS = ("name", "family", "samurai", "provinces")
_PROVINCE_KEYS = ("province", "units", "samurai", "fortresses")


def _unknown_keys(doc: Any, mapping: dict, allowed: Sequence[str], where: tuple, what: str, diags: list) -> None:
    for k in mapping:
        if k not in allowed:
            hint = did_you_mean(str(k), allowed) or "keys: " + ", ".join(allowed)
            diags.append(
                doc.positions.diag(
                    where + (k,), L_("unknown key '{k}' in {what}", k=k, what=what), hint=hint, prefer_key=True
                )
            )


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def load_list(doc: Any, catalog: Catalog) -> tuple[SenjiList, list[Finding]]:
    body = doc.body()
    diags: list = []
    _unknown_keys(doc, body, _KEYS, (), "a senji setup", diags)
    players_raw = body.get("players")
    if "players" not in body:
        diags.append(
            doc.diag(
                (),
                L_("missing required key 'players'"),
                hint=L_("players: a list of {name, family, samurai, provinces}"),
            )
        )
        players_raw = []
    elif not isinstance(players_raw, list):
        diags.append(doc.diag(("players",), L_("'players' must be a list of players")))
        players_raw = []
    players: list[Player] = []
    for i, p in enumerate(players_raw):
        ploc = ("players", i)
        if not isinstance(p, dict):
            diags.append(
                doc.diag(ploc, L_("player {value} must be a mapping with family, samurai and provinces", value=i + 1))
            )
            continue
        _unknown_keys(doc, p, _PLAYER_KEYS, ploc, f"player {i + 1}", diags)
        name = p.get("name", f"Player {i + 1}")
        if not isinstance(name, (str, int, float)) or isinstance(name, bool):
            diags.append(doc.diag(ploc + ("name",), L_("player {value}: 'name' must be text", value=i + 1)))
        family = p.get("family")
        if "family" not in p:
            diags.append(doc.diag(ploc, L_("player {value}: missing required key 'family'", value=i + 1)))
        elif not isinstance(family, str):
            diags.append(
                doc.diag(
                    ploc + ("family",),
                    L_("player {value}: 'family' must be a family name, not {family!r}", value=i + 1, family=family),
                )
            )
        samurai = p.get("samurai")
        if samurai is not None and not isinstance(samurai, str):
            diags.append(
                doc.diag(
                    ploc + ("samurai",),
                    L_(
                        "player {value}: 'samurai' must be a samurai card name, not {samurai!r}",
                        value=i + 1,
                        samurai=samurai,
                    ),
                )
            )
        provs = p.get("provinces")
        placed: list[Placed] = []
        if "provinces" not in p:
            diags.append(
                doc.diag(
                    ploc,
                    L_("player {value}: missing required key 'provinces'", value=i + 1),
                    hint=L_("the three starting provinces: [{province: NAME, units: N, samurai: true}]"),
                )
            )
        elif not isinstance(provs, list):
            diags.append(doc.diag(ploc + ("provinces",), L_("player {value}: 'provinces' must be a list", value=i + 1)))
        else:
            for j, item in enumerate(provs):
                got = _read_province(doc, item, ploc + ("provinces", j), diags)
                if got is not None:
                    placed.append(got)
        if isinstance(family, str) and (samurai is None or isinstance(samurai, str)):
            players.append(Player(str(name), family, samurai, placed, ploc))
    if diags:
        raise ListError(diags)
    findings: list[Finding] = []
    for pl in players:
        pl.family_entry = catalog.find("families", pl.family)
        if pl.family_entry is None:
            findings.append(_unknown(catalog, "families", L_("family"), pl.family, pl.loc + ("family",), "8-11"))
        if pl.samurai is not None:
            pl.samurai_entry = catalog.find("samurai", pl.samurai)
            if pl.samurai_entry is None:
                findings.append(
                    _unknown(catalog, "samurai", L_("samurai card"), pl.samurai, pl.loc + ("samurai",), "9")
                )
        for pp in pl.provinces:
            pp.entry = catalog.find("provinces", pp.province)
            if pp.entry is None:
                findings.append(
                    _unknown(
                        catalog,
                        "provinces",
                        L_("province"),
                        pp.province,
                        pp.loc + ("province",),
                        "7",
                        board=True,
                    )
                )
    return SenjiList(players, dict(doc.house_rules)), findings


def _read_province(doc: Any, item: Any, loc: tuple[Any, ...], diags: list[Any]) -> Placed | None:
    """One of a player's provinces as written (a name, or a mapping), or None when it is wrong
    (said in ``diags``)."""
    if isinstance(item, str):
        item = {"province": item}
    if not isinstance(item, dict):
        diags.append(doc.diag(loc, L_("a province is a mapping such as {province: Kyushu, units: 2}")))
        return None
    _unknown_keys(doc, item, _PROVINCE_KEYS, loc, "a province", diags)
    prov = item.get("province")
    if not isinstance(prov, str):
        diags.append(
            doc.diag(
                loc + ("province",) if "province" in item else loc,
                L_("a province needs 'province: NAME'")
                if "province" not in item
                else L_("'province' must be a province name, not {prov!r}", prov=prov),
            )
        )
        return None
    units = item.get("units", 0)
    if not _whole(units) or units < 0:
        diags.append(
            doc.diag(loc + ("units",), L_("'units' must be a whole number 0 or more, not {units!r}", units=units))
        )
        return None
    sam = item.get("samurai", False)
    if not isinstance(sam, bool):
        diags.append(doc.diag(loc + ("samurai",), L_("'samurai' must be true or false, not {sam!r}", sam=sam)))
        return None
    forts = item.get("fortresses", 1)
    if not _whole(forts) or forts < 0:
        diags.append(
            doc.diag(
                loc + ("fortresses",),
                L_("'fortresses' must be a whole number 0 or more, not {forts!r}", forts=forts),
            )
        )
        return None
    return Placed(prov, units, sam, forts, loc)


def _unknown(
    catalog: Catalog, section: str, what: str, name: str, loc: tuple, lines: Any, board: bool = False
) -> Finding:
    hint = catalog.did_you_mean(section, name)
    if hint:
        message = L_("unknown {what} '{name}'; {hint}", what=what, name=name, hint=hint)
    elif board:
        message = L_(
            "unknown {what} '{name}' (not on the board in use; a board pack can name the provinces)",
            what=what,
            name=name,
        )
    else:
        message = L_("unknown {what} '{name}'", what=what, name=name)
    return error(
        "senji.unknown-name",
        message,
        loc=loc,
        source=src(lines),
        value=name,
    )


def setup_for(players: int, catalog: Catalog) -> tuple[list, list] | None:
    """(excluded family entries, neutral province entries) for a player count; None when no setup."""
    for s in catalog.model.setups:
        if s.players == players:
            fams = [catalog.find("families", n) for n in s.excluded]
            provs = [catalog.find("provinces", n) for n in s.neutral]
            return [f for f in fams if f is not None], [p for p in provs if p is not None]
    return None


# What the rulebook says when the catalog lacks a setup row (002_55c7e5ab3d1a76a7.txt:20-24).
_FALLBACK_SETUPS = {
    6: ([], []),
    5: (["yellow"], ["Kyushu"]),
    4: (["yellow", "blue"], ["Kyushu", "Shikoku"]),
    3: (["yellow", "blue", "black"], ["Kyushu", "Shikoku", "northernmost province"]),
}


def printed_name(catalog: Catalog, section: str, key: object) -> str:
    """The catalog's spelling of ``key`` in ``section`` (as written when the catalog lacks it)."""
    if catalog is None or key is None:
        return "" if key is None else str(key)
    try:
        e = catalog.find(section, str(key))
    except Exception:
        e = None
    return e.name if e is not None else str(key)


def setup_table(catalog: Catalog, players: int) -> dict:
    """The setup for ``players``: families in play and excluded, neutral provinces (names as
    printed), and the source; the rulebook's table when the catalog lacks the row."""
    model = getattr(catalog, "model", None)
    setups = list(getattr(model, "setups", None) or [])
    families = [f.name for f in (getattr(model, "families", None) or [])]
    row = next((s for s in setups if s.players == players), None)
    if row is not None:
        excluded = [printed_name(catalog, "families", x) for x in row.excluded]
        neutral = [printed_name(catalog, "provinces", x) for x in row.neutral]
        source = row.source
    else:
        excluded, neutral = _FALLBACK_SETUPS.get(players, ([], []))
        source = src("20-24")
    in_play = [f for f in families if f not in excluded]
    return {"players": players, "excluded": excluded, "neutral": neutral, "in_play": in_play, "source": source}


def _setup_source(players: int, catalog: Catalog) -> str:
    for s in catalog.model.setups:
        if s.players == players:
            return s.source or src("20-24")
    return src("20-24")


def _and(names: list[str]) -> str:
    """``Aiko``, ``Aiko and Kenji``, ``Aiko, Kenji and Sora``."""
    if len(names) == 1:
        return names[0]
    return L_("{names} and {last}", names=", ".join(names[:-1]), last=names[-1])


def _family_findings(
    pl: Player, fam: Any, also: list[str], excluded: list[Any], n: int, setup_src: str | None
) -> list[Finding]:
    """A player's family: played by another too, excluded with this many players, or a name the
    rulebook does not give."""
    who = pl.name
    excluded_ids = {f.id for f in excluded}
    out: list[Finding] = []
    if also:
        out.append(
            error(
                "senji.family-duplicate",
                L_(
                    "{who}: family '{family}' is also played by {others}",
                    who=who,
                    family=fam.name,
                    others=_and(also),
                ),
                loc=pl.loc + ("family",),
                source=src("27"),
                value=fam.name,
                counted=also,
            )
        )
    if fam.id in excluded_ids:
        names = ", ".join(f.name for f in excluded)
        out.append(
            error(
                "senji.family-excluded",
                L_(
                    "{who}: the {family} family is excluded with {n} players (excluded: {names})",
                    who=who,
                    family=fam.name,
                    n=n,
                    names=names,
                ),
                loc=pl.loc + ("family",),
                source=setup_src,
                value=fam.name,
                bound=f"not {names}",
                base=f"{n} players",
            )
        )
    if not getattr(fam, "known", True):
        out.append(
            info(
                "senji.placeholder-family",
                L_(
                    "{who}: the family name '{family}' is not given by the rulebook ({assumed})",
                    who=who,
                    family=fam.name,
                    assumed=fam.assumed or L_("assumed"),
                ),
                loc=pl.loc + ("family",),
            )
        )
    return out


def _samurai_findings(pl: Player, also: list[str], c: dict[str, Any], catalog: Catalog) -> list[Finding]:
    """A player's samurai card: missing, kept by another too, or a placeholder."""
    who = pl.name
    out: list[Finding] = []
    if pl.samurai is None:
        kept, drawn = c.get("samurai_cards_kept", 1), c.get("samurai_cards_drawn", 3)
        out.append(
            error(
                "senji.samurai-card",
                L_(
                    "{who}: no samurai card; each player keeps {kept} of the {drawn} drawn",
                    who=who,
                    kept=kept,
                    drawn=drawn,
                ),
                loc=pl.loc,
                source=limit_source(catalog, "samurai_cards_kept", src("37")),
                value=0,
                bound=kept,
            )
        )
    elif pl.samurai_entry is not None:
        s = pl.samurai_entry
        if also:
            out.append(
                error(
                    "senji.samurai-duplicate",
                    L_(
                        "{who}: samurai card '{card}' is also kept by {others}; there is one card of each samurai",
                        who=who,
                        card=s.name,
                        others=_and(also),
                    ),
                    loc=pl.loc + ("samurai",),
                    source=src("9"),
                    value=s.name,
                    counted=also,
                )
            )
        if not getattr(s, "known", True):
            out.append(
                warning(
                    "senji.placeholder-samurai",
                    L_(
                        "{who}: '{card}' is a placeholder; the rulebook does not name this samurai card",
                        who=who,
                        card=s.name,
                    ),
                    loc=pl.loc + ("samurai",),
                    source=src("9"),
                )
            )
    return out


def check(lst: SenjiList, catalog: Catalog, rules: HouseRules) -> list[Finding]:
    """The findings of a Senji list: the players' count, and each player's family, samurai card,
    provinces, fortresses, units and samurai placement."""
    c = constants(catalog)
    out: list[Finding] = []
    n = len(lst.players)
    lo, hi = c["players_min"], c["players_max"]
    if not lo <= n <= hi:
        out.append(
            error(
                "senji.player-count",
                L_("{n} players; Senji is for {lo} to {hi} players", n=n, lo=lo, hi=hi),
                loc=("players",),
                source=src("20-24"),
                value=n,
                bound=f"{lo}-{hi}",
            )
        )
    excluded, neutral = setup_for(n, catalog) or ([], [])
    table = _Table(
        catalog, c, n, neutral, _setup_source(n, catalog), bool(rules.get("samurai_in_province_limit", False))
    )
    claims = _Claims.of(lst)
    example_used = False
    for pl in lst.players:
        fam = pl.family_entry
        if fam is not None:
            out += _family_findings(pl, fam, claims.others(claims.family, fam.id, pl), excluded, n, table.setup_src)
        # samurai card
        also = claims.others(claims.samurai, pl.samurai_entry.id, pl) if pl.samurai_entry is not None else []
        out += _samurai_findings(pl, also, c, catalog)
        # provinces
        out += _province_count_findings(pl, c, catalog)
        own: set[str] = set()
        for pp in pl.provinces:
            example_used = _placed_findings(table, claims, pl, pp, own, out) or example_used
        out += _unit_findings(pl, c, catalog)
    if example_used:
        out.append(
            info(
                "senji.example-board",
                L_("province names come from an example board pack, not the rulebook"),
                loc=("players",),
            )
        )
    return out


@dataclass
class _Table:
    """The game a list sets up: its catalog and constants, the count of players, the provinces
    neutral with that count, the source of the count's setup, and whether a samurai counts
    towards a province's units (house rule ``samurai_in_province_limit``)."""

    catalog: Catalog
    c: dict[str, Any]
    n: int
    neutral: list[Any]
    setup_src: Any
    count_samurai: bool


@dataclass
class _Claims:
    """Who claims what. The rulebook has the host (the highest honor) name provinces first, but
    the honor printed on a samurai card is not in the text, so no claim comes "first": a
    family, samurai card or province named by two players is reported at each of them,
    naming the others (a change to either fixes it)."""

    family: dict[str, list[Player]]
    samurai: dict[str, list[Player]]
    province: dict[str, list[Player]]

    @classmethod
    def of(cls, lst: SenjiList) -> _Claims:
        family_of: dict[str, list[Player]] = {}
        samurai_of: dict[str, list[Player]] = {}
        province_of: dict[str, list[Player]] = {}
        for pl in lst.players:
            if pl.family_entry is not None:
                family_of.setdefault(pl.family_entry.id, []).append(pl)
            if pl.samurai_entry is not None:
                samurai_of.setdefault(pl.samurai_entry.id, []).append(pl)
            for pid in dict.fromkeys(pp.entry.id for pp in pl.provinces if pp.entry is not None):
                province_of.setdefault(pid, []).append(pl)
        return cls(family_of, samurai_of, province_of)

    @staticmethod
    def others(claims: dict[str, list[Player]], key: str, pl: Player) -> list[str]:
        """The other players claiming ``key``."""
        return [o.name for o in claims.get(key, ()) if o is not pl]


def _province_count_findings(pl: Player, c: dict[str, Any], catalog: Catalog) -> list[Finding]:
    """A player names exactly the starting provinces, and no more than a player may control."""
    out: list[Finding] = []
    who = pl.name
    k = len(pl.provinces)
    want = c["starting_provinces"]
    if k != want:
        out.append(
            error(
                "senji.starting-provinces",
                L_("{who}: {n} starting provinces; each player names exactly {want}", who=who, n=k, want=want),
                loc=pl.loc + ("provinces",),
                source=limit_source(catalog, "starting_provinces", src("43")),
                value=k,
                bound=want,
                counted=[pp.province for pp in pl.provinces],
            )
        )
    if k > c["provinces_per_player"]:
        out.append(
            error(
                "senji.provinces-max",
                L_(
                    "{who}: {n} provinces > {most} provinces a player may control",
                    who=who,
                    n=k,
                    most=c["provinces_per_player"],
                ),
                loc=pl.loc + ("provinces",),
                source=limit_source(catalog, "provinces_per_player", src("177")),
                value=k,
                bound=c["provinces_per_player"],
            )
        )
    return out


def _placed_findings(table: _Table, claims: _Claims, pl: Player, pp: Placed, own: set[str], out: list[Finding]) -> bool:
    """The findings of one starting province of ``pl`` (``own``: the provinces of ``pl`` seen
    before it), added to ``out``; whether its name comes from an example board pack."""
    catalog, c = table.catalog, table.c
    who = pl.name
    example_used = False
    e = pp.entry
    if e is not None:
        example_used = _province_entry_findings(table, claims, pl, pp, e, own, out)
    if pp.fortresses != c["fortresses_per_province"]:
        out.append(
            error(
                "senji.fortress-count",
                L_(
                    "{who}: {n} fortresses in '{province}'; each named province gets exactly {want}",
                    who=who,
                    n=pp.fortresses,
                    province=pp.province,
                    want=c["fortresses_per_province"],
                ),
                loc=pp.loc + ("fortresses",),
                source=limit_source(catalog, "fortresses_per_province", src("44")),
                value=pp.fortresses,
                bound=c["fortresses_per_province"],
            )
        )
    in_prov = pp.units + (1 if (pp.samurai and table.count_samurai) else 0)
    if in_prov > c["units_per_province"]:
        base = "military units" + (" and samurai (house rule samurai_in_province_limit)" if table.count_samurai else "")
        out.append(
            error(
                "senji.province-units-max",
                L_(
                    "{who}: {n} units in '{province}' > {most} per province",
                    who=who,
                    n=in_prov,
                    province=pp.province,
                    most=c["units_per_province"],
                ),
                loc=pp.loc + ("units",),
                source=limit_source(catalog, "units_per_province", src("102")),
                value=in_prov,
                bound=c["units_per_province"],
                base=base,
            )
        )
    return example_used


def _province_entry_findings(
    table: _Table, claims: _Claims, pl: Player, pp: Placed, e: Any, own: set[str], out: list[Finding]
) -> bool:
    """A province of the catalog named as a start: named twice, another player's too, neutral with
    this count, or a placeholder; whether its name comes from an example board pack."""
    catalog, n, neutral = table.catalog, table.n, table.neutral
    who = pl.name
    if e.id in own:
        out.append(
            error(
                "senji.province-taken",
                L_("{who}: province '{province}' is named twice", who=who, province=e.name),
                loc=pp.loc + ("province",),
                source=src("43-44"),
                value=e.name,
            )
        )
    elif claims.others(claims.province, e.id, pl):
        also = claims.others(claims.province, e.id, pl)
        out.append(
            error(
                "senji.province-taken",
                L_(
                    "{who}: province '{province}' is also a starting province of {others}",
                    who=who,
                    province=e.name,
                    others=_and(also),
                ),
                loc=pp.loc + ("province",),
                source=src("43-44"),
                value=e.name,
                counted=also,
            )
        )
    own.add(e.id)
    if e.id in {p.id for p in neutral}:
        names = ", ".join(p.name for p in neutral)
        out.append(
            error(
                "senji.province-neutral",
                L_(
                    "{who}: '{province}' is neutral with {n} players (neutral: {names})",
                    who=who,
                    province=e.name,
                    n=n,
                    names=names,
                ),
                loc=pp.loc + ("province",),
                source=table.setup_src,
                value=e.name,
                base=f"{n} players",
            )
        )
    if not getattr(e, "known", True):
        out.append(
            warning(
                "senji.placeholder-province",
                L_(
                    "{who}: '{province}' is a placeholder; the rulebook does not name this province (use "
                    "a board pack with the names of your board)",
                    who=who,
                    province=e.name,
                ),
                loc=pp.loc + ("province",),
                source=src("7"),
            )
        )
    return bool(catalog.is_example("provinces", e))


def _unit_findings(pl: Player, c: dict[str, Any], catalog: Catalog) -> list[Finding]:
    """A player places exactly the starting units (no more than a player may have) and the
    samurai in exactly the starting number of provinces."""
    out: list[Finding] = []
    who = pl.name
    units = sum(pp.units for pp in pl.provinces)
    if units != c["starting_units"]:
        out.append(
            error(
                "senji.starting-units",
                L_(
                    "{who}: {n} military units placed; exactly the {want} starting units must be placed",
                    who=who,
                    n=units,
                    want=c["starting_units"],
                ),
                loc=pl.loc + ("provinces",),
                source=limit_source(catalog, "starting_units", src("46")),
                value=units,
                bound=c["starting_units"],
                counted=[f"{pp.province}: {pp.units}" for pp in pl.provinces],
            )
        )
    if units > c["units_per_player"]:
        out.append(
            error(
                "senji.player-units-max",
                L_("{who}: {n} military units > {most} per player", who=who, n=units, most=c["units_per_player"]),
                loc=pl.loc + ("provinces",),
                source=limit_source(catalog, "units_per_player", src("181")),
                value=units,
                bound=c["units_per_player"],
            )
        )
    placed_samurai = [pp for pp in pl.provinces if pp.samurai]
    if len(placed_samurai) != c["starting_samurai"]:
        out.append(
            error(
                "senji.samurai-placement",
                L_(
                    "{who}: the samurai is placed in {n} provinces; it must be placed in exactly {want}",
                    who=who,
                    n=len(placed_samurai),
                    want=c["starting_samurai"],
                ),
                loc=(placed_samurai[1].loc + ("samurai",)) if len(placed_samurai) > 1 else pl.loc + ("provinces",),
                source=src("46"),
                value=len(placed_samurai),
                bound=c["starting_samurai"],
                counted=[pp.province for pp in placed_samurai],
            )
        )
    return out


def setup_sheet(lst: SenjiList, catalog: Catalog, rules: HouseRules | None = None) -> dict:
    """What a printed setup sheet shows: the count's setup and each player's start."""
    n = len(lst.players)
    setup = setup_for(n, catalog) or ([], [])
    c = constants(catalog)
    players = []
    for pl in lst.players:
        fam = pl.family_entry
        players.append(
            {
                "name": pl.name,
                "family": fam.name if fam is not None else pl.family,
                "colour": getattr(fam, "colour", None),
                "samurai": pl.samurai_entry.name if pl.samurai_entry is not None else pl.samurai,
                "samurai_honor": getattr(pl.samurai_entry, "honor", None),
                "provinces": [
                    {
                        "province": pp.entry.name if pp.entry is not None else pp.province,
                        "units": pp.units,
                        "samurai": pp.samurai,
                        "fortresses": pp.fortresses,
                    }
                    for pp in pl.provinces
                ],
                "components": [
                    {"name": comp.name, "count": comp.per_player, "in_play": comp.placed_at_start}
                    for comp in catalog.entries("components")
                    if comp.per_player
                ],
            }
        )
    return {
        "players": players,
        "player_count": n,
        "excluded_families": [f.name for f in setup[0]],
        "neutral_provinces": [p.name for p in setup[1]],
        "honor_goal": c["honor_goal"],
        "limits": {
            k: c[k] for k in ("units_per_province", "units_per_player", "units_per_fleet", "provinces_per_player")
        },
    }


def summary(lst: SenjiList, catalog: Catalog, rules: HouseRules) -> dict:
    n = len(lst.players)
    setup = setup_for(n, catalog)
    return {
        "players": n,
        "families": [p.family_entry.name if p.family_entry is not None else p.family for p in lst.players],
        "provinces": sum(len(p.provinces) for p in lst.players),
        "units": sum(pp.units for p in lst.players for pp in p.provinces),
        "neutral": [p.name for p in setup[1]] if setup else [],
    }


def limits(lst: SenjiList, catalog: Catalog, rules: HouseRules) -> list[dict]:
    """Units and provinces of each player, and units in each province, against the rulebook's most."""
    c = constants(catalog)
    rows = []
    for p in lst.players:
        units = sum(pp.units for pp in p.provinces)
        rows.append(
            limit(
                L_("units of a player"),
                "max",
                units,
                c["units_per_player"],
                "units",
                limit_source(catalog, "units_per_player", ""),
                group=p.name,
            )
        )
        rows.append(
            limit(
                L_("provinces of a player"),
                "max",
                len(p.provinces),
                c["provinces_per_player"],
                "provinces",
                limit_source(catalog, "provinces_per_player", ""),
                group=p.name,
            )
        )
        for pp in p.provinces:
            if pp.units:
                name = pp.entry.name if pp.entry is not None else pp.province
                rows.append(
                    limit(
                        L_("units in a province"),
                        "max",
                        pp.units,
                        c["units_per_province"],
                        "units",
                        limit_source(catalog, "units_per_province", ""),
                        group=f"{p.name}: {name}",
                    )
                )
    return rows


# -- finding codes ---------------------------------------------------------------------------------

FINDING_CODES = codes(
    "senji",
    {
        "unknown-name": ("error", N_("a family, samurai or province the catalog and the list's packs do not know")),
        "player-count": ("error", N_("Senji is played by three to six players"), src("20-24")),
        "family-duplicate": ("error", N_("two players play the same family"), src("27")),
        "family-excluded": ("error", N_("a family the setup for this number of players excludes"), src("20-24")),
        "placeholder-family": ("info", N_("a family name the rulebook does not give (an assumed name)")),
        "samurai-card": ("error", N_("each player keeps one samurai card"), src("37")),
        "samurai-duplicate": ("error", N_("one samurai card kept by two players"), src("9")),
        "placeholder-samurai": ("warning", N_("a samurai card the rulebook does not name (a placeholder)"), src("9")),
        "starting-provinces": ("error", N_("each player names exactly the starting number of provinces"), src("43")),
        "provinces-max": ("error", N_("more provinces than a player may control"), src("177")),
        "province-taken": ("error", N_("a province named twice or already another player's"), src("43-44")),
        "province-neutral": ("error", N_("a province that is neutral with this number of players"), src("20-24")),
        "placeholder-province": ("warning", N_("a province the rulebook does not name (use a board pack)"), src("7")),
        "fortress-count": ("error", N_("each named province gets exactly the starting fortresses"), src("44")),
        "province-units-max": ("error", N_("more military units in one province than allowed"), src("102")),
        "starting-units": ("error", N_("exactly the starting military units must be placed"), src("46")),
        "player-units-max": ("error", N_("more military units than a player may have"), src("181")),
        "samurai-placement": (
            "error",
            N_("the samurai is placed in exactly the starting number of provinces"),
            src("46"),
        ),
        "example-board": ("info", N_("the province names come from an example board pack, not the rulebook")),
    },
)


def written_text(value: object) -> str:
    """A value of the list as written, when it is text or a number; "" otherwise."""
    return str(value) if isinstance(value, (str, int, float)) and not isinstance(value, bool) else ""
