"""Building Senshiai, HeroCard, Senji and Satsuma lists from the command line: new, add, remove, set, why."""

import re
import shutil

import pytest

from conftest import ROOT

PACKS = ROOT / "examples" / "packs"


@pytest.fixture
def work(tmp_path):
    """A folder with the example packs under packs/ and copies of the example lists."""
    shutil.copytree(PACKS, tmp_path / "packs")
    for name in ("senshiai-northern-host", "herocard-samurai", "satsuma-samurai", "senji-three-daimyo"):
        shutil.copy(ROOT / "examples" / f"{name}.yaml", tmp_path / f"{name}.yaml")
    return tmp_path


def read(p):
    return p.read_text(encoding="utf-8")


def one_error_line(r, text):
    """Exit 2 with exactly one error line (no traceback) containing ``text``."""
    assert r.code == 2, r
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and text in lines[0], r.stderr
    assert "Traceback" not in r.stderr


# -- senshiai -----------------------------------------------------------------------------------


def test_senshiai_new_add_remove_set(cli, work):
    deck = work / "deck.yaml"
    r = cli(
        "new",
        "senshiai",
        "--size",
        "50",
        "--name",
        "North",
        "--pack",
        work / "packs" / "senshiai-example.yaml",
        "-o",
        deck,
    )
    assert r.code == 0, r.stderr
    assert read(deck) == (
        "system: senshiai\nname: North\npacks:\n  - packs/senshiai-example.yaml\nsize: 50\ncards: {}\n"
    )
    # the check result follows the write
    assert "senshiai.deck-size: deck has 0 cards but the agreed size is 50" in r.stdout
    assert "senshiai.capital-count" in r.stdout
    r = cli("add", deck, "capital of the north")  # case does not matter; the catalog's spelling is written
    assert r.code == 0 and "added 1 Capital of the North (1 in the deck)" in r.stdout
    r = cli("add", deck, "Warriors", "--count", "3")
    assert r.code == 0 and "added 3 Warriors (3 in the deck)" in r.stdout
    assert cli("add", deck, "rice fields", "-n", "4").code == 0  # a terrain: after the last terrain
    assert cli("add", deck, "Warriors", "-n", "2").code == 0  # more copies on the same line
    assert read(deck).endswith("cards:\n  Capital of the North: 1\n  Rice Fields: 4\n  Warriors: 5\n")
    r = cli("remove", deck, "WARRIORS")
    assert r.code == 0 and "removed 1 Warriors (4 left)" in r.stdout
    r = cli("remove", deck, "Rice Fields", "--count", "4")
    assert r.code == 0 and "removed 4 Rice Fields (none left; line removed)" in r.stdout
    r = cli("set", deck, "size", "60")
    assert r.code == 0 and "deck has 5 cards but the agreed size is 60" in r.stdout
    assert read(deck) == (
        "system: senshiai\nname: North\npacks:\n  - packs/senshiai-example.yaml\nsize: 60\n"
        "cards:\n  Capital of the North: 1\n  Warriors: 4\n"
    )
    r = cli("set", deck, "size", "none")
    assert r.code == 0 and "legal (0 errors" in r.stdout
    assert "size" not in read(deck)
    assert cli("set", deck, "size", "40").code == 0  # a new key goes where the format puts it
    assert read(deck).startswith(
        "system: senshiai\nname: North\npacks:\n  - packs/senshiai-example.yaml\nsize: 40\ncards:\n"
    )


def test_senshiai_edits_keep_comments_and_groups(cli, work):
    deck = work / "senshiai-northern-host.yaml"
    before = read(deck)
    assert cli("remove", deck, "Stone Fort").code == 0  # its line goes, the "# troops" heading stays
    assert cli("add", deck, "Storm Hawks", "-n", "2").code == 0  # a troop joins the troops
    assert cli("add", deck, "Stone Fort").code == 0  # a terrain joins the terrains, above "# troops"
    assert cli("remove", deck, "Warriors", "-n", "2").code == 0
    assert cli("remove", deck, "Native Barbarian", "--all").code == 0
    after = read(deck)
    assert after == before.replace("  Warriors: 6\n", "  Warriors: 4\n").replace(
        "  Samurai Guard: 2\n  # events\n", "  Samurai Guard: 2\n  Storm Hawks: 2\n  # events\n"
    ).replace("  Native Barbarian: 3\n", "")
    assert after.startswith("# A legal 50-card Senshiai deck built from the example pack")
    r = cli("set", deck, "name", "Northern host II")
    assert r.code == 0
    assert "name: Northern host II\nauthor: daimyo examples\n" in read(deck)


def test_senshiai_unknown_names_and_bad_counts_leave_the_file(cli, work):
    deck = work / "senshiai-northern-host.yaml"
    before = read(deck)
    one_error_line(cli("add", deck, "Warrior"), "unknown card 'Warrior' (did you mean 'Warriors'?)")
    one_error_line(cli("add", deck, "Warriors", "--count", "0"), "--count must be at least 1, not 0")
    one_error_line(cli("add", deck, "Warriors", "--models", "3"), "--models applies to kensei troops")
    one_error_line(cli("remove", deck, "Sky Rider"), "no 'Sky Rider' in the deck (did you mean 'Sky Riders'?)")
    one_error_line(cli("remove", deck, "Storm Hawks"), "no 'Storm Hawks' in the deck")
    one_error_line(
        cli("remove", deck, "Eagle Eyrie", "-n", "3"),
        "only 2 Eagle Eyrie in the deck, cannot remove 3 (use --count 2 or --all)",
    )
    one_error_line(cli("set", deck, "sise", "60"), "cannot set 'sise' in a senshiai deck (did you mean 'size'?)")
    one_error_line(cli("set", deck, "size", "sixty"), "size must be a whole number, not 'sixty'")
    one_error_line(cli("set", deck, "size", "0"), "size must be at least 1, not 0")
    assert read(deck) == before


def test_new_refuses_to_overwrite_without_force(cli, work):
    deck = work / "deck.yaml"
    deck.write_text("system: senshiai\ncards: {Warriors: 3}  # mine\n", encoding="utf-8")
    for args in (
        ("senshiai",),
        ("herocard", "--hero", "Samurai"),
        ("senji", "--players", "3"),
        ("satsuma", "--side", "samurai"),
    ):
        r = cli("new", *args, "-o", deck)
        one_error_line(r, "file exists; not overwritten (pass --force to replace it)")
        assert read(deck) == "system: senshiai\ncards: {Warriors: 3}  # mine\n"
    r = cli("new", "satsuma", "--side", "imperial", "-o", deck, "--force")
    assert r.code == 0 and read(deck) == "system: satsuma\nside: imperial\ndeck: standard\n"


def test_new_refuses_options_of_other_systems_and_missing_packs(cli, work):
    out = work / "x.yaml"
    one_error_line(
        cli("new", "senshiai", "--hero", "Samurai", "-o", out),
        "'hero' is not an option of a new senshiai list (senshiai lists take size)",
    )
    one_error_line(
        cli("new", "kensei", "--clan", "buke", "--size", "50", "-o", out),
        "'size' is not an option of a new kensei list (kensei lists take clan, commander, occult, points)",
    )
    one_error_line(cli("new", "senshiai", "--pack", work / "nope.yaml", "-o", out), "pack file")
    one_error_line(cli("new", "senshiai", "--size", "0", "-o", out), "error: size must be at least 1, not 0")
    one_error_line(cli("new", "senshai", "-o", out), "unknown system 'senshai' (did you mean 'senshiai'?)")
    assert not out.exists()


def test_senshiai_why(cli, work):
    deck = work / "senshiai-northern-host.yaml"
    r = cli("why", deck, "warriors")
    assert r.code == 1
    assert r.stdout.splitlines() == [
        "no: adding 1 Warriors would break 1 rule:",
        "  senshiai.deck-size: deck has 51 cards but the agreed size is 50 (over by 1) (Senshiai rulebook, The Deck, line 17)",
    ]
    r = cli("why", deck, "Capital of the South")
    assert r.code == 1 and "senshiai.capital-count: deck has 2 Capitals" in r.stdout and "(over by 1)" in r.stdout
    assert cli("set", deck, "size", "none").code == 0
    r = cli("why", deck, "Warriors")
    assert r.code == 0
    assert r.stdout.splitlines()[0] == "yes: 1 Warriors can be added; the deck would have 51 cards (at most 200)"
    r = cli("why", deck, "Warriors", "--count", "151")
    assert r.code == 1
    assert "senshiai.deck-max: deck has 201 cards > 200 (the most a deck may hold) (over by 1)" in r.stdout
    # a deck short of its agreed size: adding is fine while the shortfall remains
    assert cli("set", deck, "size", "60").code == 0
    r = cli("why", deck, "Warriors", "-n", "4")
    assert r.code == 0
    assert "still to fix: senshiai.deck-size: deck has 54 cards but the agreed size is 60 (short by 6)" in r.stdout
    r = cli("why", deck, "Warriors", "-n", "11")
    assert r.code == 1
    assert "senshiai.deck-size: deck has 61 cards but the agreed size is 60 (over by 1)" in r.stdout
    assert "already broken before: deck has 50 cards but the agreed size is 60" in r.stdout
    one_error_line(cli("why", deck, "Warior"), "unknown card 'Warior' (did you mean 'Warriors'?)")


def test_senshiai_why_names_the_rule_an_addition_satisfies(cli, work):
    deck = work / "deck.yaml"
    assert cli("new", "senshiai", "--pack", work / "packs" / "senshiai-example.yaml", "-o", deck).code == 0
    r = cli("why", deck, "Capital of the North")
    assert r.code == 0
    assert r.stdout.splitlines() == [
        "yes: 1 Capital of the North can be added; the deck would have 1 card (at most 200)",
        "  and it would satisfy senshiai.capital-count",
    ]
    assert cli("add", deck, "Capital of the North").code == 0
    r = cli("why", deck, "Capital of the North")
    assert r.code == 1 and "senshiai.capital-count: deck has 2 Capitals (2 Capital of the North)" in r.stdout


# -- herocard -----------------------------------------------------------------------------------


def test_herocard_new_starts_with_the_heros_attribute_cards(cli, work):
    hero = work / "hero.yaml"
    r = cli("new", "herocard", "--hero", "the samurai", "-o", hero)
    assert r.code == 0, r.stderr
    assert read(hero) == (
        "system: herocard\nhero: Samurai\nmax_hero_points: 30\nattributes:\n"
        "  - Warrior's Strength\n  - Scholar's Wisdom\n  - Honor's Power\ndeck: {}\n"
    )
    assert "attributes: the Samurai's Warrior's Strength, Scholar's Wisdom, Honor's Power" in r.stdout
    assert "herocard.deck-min: action deck has 0 cards < 20" in r.stdout
    r = cli("new", "herocard", "--hero", "My Ronin", "--max-hero-points", "35", "-o", work / "ronin.yaml")
    assert r.code == 0
    assert read(work / "ronin.yaml") == (
        "system: herocard\nhero: My Ronin\nmax_hero_points: 35\nattributes: []\ndeck: {}\n"
    )
    assert "'My Ronin' is your own hero" in r.stdout
    one_error_line(cli("new", "herocard", "-o", work / "x.yaml"), "hero is required for herocard lists")


def test_herocard_add_remove_set(cli, work):
    hero = work / "hero.yaml"
    r = cli("new", "herocard", "--hero", "Samurai", "--pack", work / "packs" / "herocard-example.yaml", "-o", hero)
    assert r.code == 0
    assert "also in the catalog: Iron Body (Body)" in r.stdout
    hero.write_text(read(hero).replace("deck: {}\n", "# the action deck\ndeck: {}\n"), encoding="utf-8")
    r = cli("add", hero, "overhand thrust", "-n", "3")
    assert r.code == 0 and "added 3 Overhand Thrust (3 in the action deck)" in r.stdout
    assert cli("add", hero, "Efficient Block", "-n", "2").code == 0
    assert cli("add", hero, "Resounding Blow", "-n", "2").code == 0  # a base attack: after Overhand Thrust
    # an attribute card goes into attributes, replacing the card of its kind
    r = cli("add", hero, "iron body")
    assert r.code == 0
    assert "Iron Body is an attribute card (Body): it replaces Warrior's Strength as the hero's Body card" in r.stdout
    assert "herocard.hero-points-max: hero points 33 > 30" in r.stdout
    one_error_line(cli("add", hero, "Iron Body"), "'Iron Body' is already one of the hero's attribute cards")
    one_error_line(cli("add", hero, "Honor's Power", "-n", "2"), "'Honor's Power' is an attribute card")
    r = cli("set", hero, "max_hero_points", "35")
    assert r.code == 0 and "herocard.hero-points-max" not in r.stdout
    r = cli("set", hero, "hero", "the ninja")
    assert r.code == 0 and "set hero = Ninja" in r.stdout
    r = cli("set", hero, "hero", "Samurao")
    assert r.code == 0 and "'Samurao' is not a hero of the catalog (did you mean 'Samurai'?)" in r.stdout
    assert cli("remove", hero, "Efficient Block").code == 0
    r = cli("remove", hero, "Scholar's Wisdom")
    assert r.code == 0 and "removed Scholar's Wisdom from the hero's attribute cards" in r.stdout
    assert read(hero) == (
        "system: herocard\npacks:\n  - packs/herocard-example.yaml\nhero: Samurao\n"
        "max_hero_points: 35\nattributes:\n  - Iron Body\n  - Honor's Power\n"
        "# the action deck\ndeck:\n  Overhand Thrust: 3\n  Resounding Blow: 2\n"
        "  Efficient Block: 1\n"
    )


def test_herocard_refusals_leave_the_file(cli, work):
    hero = work / "herocard-samurai.yaml"
    before = read(hero)
    one_error_line(
        cli("add", hero, "Overhand Trust"), "unknown card 'Overhand Trust' (did you mean 'Overhand Thrust'?)"
    )
    one_error_line(cli("set", hero, "max_hero_points", "none"), "max_hero_points must be a whole number")
    one_error_line(cli("set", hero, "side", "samurai"), "cannot set 'side' in a herocard hero")
    assert read(hero) == before
    # the list's own limit and an agreed house rule must agree: the edit is refused
    conflict = before.replace("max_hero_points: 30\n", "max_hero_points: 30\nhouse_rules: {max_hero_points: 30}\n")
    hero.write_text(conflict, encoding="utf-8")
    r = cli("set", hero, "max_hero_points", "35")
    one_error_line(r, "'max_hero_points: 35' disagrees with house rule max_hero_points 30")
    assert read(hero) == conflict


def test_herocard_why(cli, work):
    hero = work / "herocard-samurai.yaml"
    r = cli("why", hero, "Overhand Thrust", "--count", "3")
    assert r.code == 0
    assert r.stdout.splitlines()[0] == (
        "yes: 3 Overhand Thrust can be added; 6 of at most 6 copies; the action deck would have 29 cards"
    )
    r = cli("why", hero, "Overhand Thrust", "--count", "4")
    assert r.code == 1
    assert r.stdout.splitlines() == [
        "no: adding 4 Overhand Thrust would break 1 rule:",
        "  herocard.copies-max: 7 copies of 'Overhand Thrust' > 6 (the most copies of one card) (over by 1) "
        "(HeroCard rulebook, Creating Your Own Decks, lines 1216-1217; HeroCard Glossary, line 1253)",
    ]
    r = cli("why", hero, "Heaven Splitter")  # never playable is a warning: no deck rule forbids the card
    assert r.code == 0 and r.stdout.startswith("yes: 1 Heaven Splitter can be added")
    r = cli("why", hero, "Iron Body")
    assert r.code == 1
    assert "it replaces Warrior's Strength" in r.stdout
    assert "herocard.hero-points-max: hero points 33 > 30 (the agreed hero point limit) (over by 3)" in r.stdout
    # with Iron Body's Body 12 the Heaven Splitter is playable; the hero points are then over
    assert cli("set", hero, "max_hero_points", "33").code == 0
    assert cli("add", hero, "Iron Body").code == 0
    r = cli("why", hero, "Heaven Splitter")
    assert r.code == 0 and r.stdout.startswith("yes: 1 Heaven Splitter can be added; 1 of at most 6 copies")


def test_herocard_why_a_short_deck_is_still_to_fix(cli, work):
    hero = work / "hero.yaml"
    assert (
        cli("new", "herocard", "--hero", "Samurai", "--pack", work / "packs" / "herocard-example.yaml", "-o", hero).code
        == 0
    )
    r = cli("why", hero, "Cross Block", "-n", "2")
    assert r.code == 0
    # a mod without a base card in the deck can never be played: allowed, with the warning
    assert r.stdout.splitlines()[0] == (
        "yes: 2 Cross Block can be added, with 1 warning; 2 of at most 6 copies; the action deck would have 2 cards"
    )
    assert r.stdout.splitlines()[1].startswith(
        "  warning herocard.mod-without-base: 'Cross Block' (Block Mod) can never be played"
    )
    assert (
        "still to fix: herocard.deck-min: action deck has 2 cards < 20 (the fewest an Action deck may hold) "
        "(short by 18)" in r.stdout
    )


# -- senji ----------------------------------------------------------------------------------------


def test_senji_new_and_set(cli, work):
    setup = work / "setup.yaml"
    r = cli("new", "senji", "--players", "3", "-o", setup)
    assert r.code == 0, r.stderr
    assert read(setup) == (
        "system: senji\nplayers:\n"
        "  - name: Player 1\n    family: red\n    provinces: []\n"
        "  - name: Player 2\n    family: green\n    provinces: []\n"
        "  - name: Player 3\n    family: white\n    provinces: []\n"
    )
    assert "families red, green, white (those in play with 3 players)" in r.stdout
    assert "senji.samurai-card: Player 1: no samurai card" in r.stdout
    assert "senji.starting-provinces: Player 1: 0 starting provinces; each player names exactly 3" in r.stdout
    r = cli("new", "senji", "--players", "6", "-o", work / "six.yaml")
    assert r.code == 0 and "families yellow, blue, black, red, green, white" in r.stdout
    one_error_line(cli("new", "senji", "--players", "7", "-o", work / "x.yaml"), "players must be from 3 to 6, not 7")
    one_error_line(cli("new", "senji", "-o", work / "x.yaml"), "players is required for senji lists (from 3 to 6)")
    r = cli("set", setup, "name", "Friday game")
    assert r.code == 0 and read(setup).startswith("system: senji\nname: Friday game\nplayers:\n")
    one_error_line(cli("set", setup, "players", "4"), "cannot set 'players' in a senji setup")


def test_senji_add_remove_why(cli, work):
    setup = work / "senji-three-daimyo.yaml"
    # Kyushu is neutral with 3 players (the rulebook's setup table): added, and said at once
    r = cli("why", setup, "Kyushu", "--player", "Aiko")
    assert r.code == 1
    assert r.stdout.splitlines()[0] == "no: adding Kyushu to Aiko's provinces would break 2 rules:"
    assert "  senji.province-neutral: Aiko: 'Kyushu' is neutral with 3 players" in r.stdout
    r = cli("add", setup, "Kyushu", "--player", "Aiko")
    lines = r.stdout.splitlines()
    assert r.code == 0 and lines[0] == "added Kyushu to Aiko's provinces"
    assert lines[1].startswith(f"{setup}:") and "error senji." in lines[1]
    assert "      - {province: Kyushu}" in read(setup)
    r = cli("remove", setup, "kyushu")
    assert r.code == 0 and r.stdout.splitlines()[0] == "removed Kyushu from Aiko's provinces"
    assert "{province: Kyushu}" not in read(setup) and "ILLEGAL" not in r.stdout
    # a samurai card replaces the player's card; a family adds a player
    r = cli("add", setup, "Ekes", "--player", "Kenji")
    assert r.stdout.splitlines()[0] == "Kenji takes Ekes as samurai card (instead of Chosogabe)"
    r = cli("add", setup, "yellow", "--player", "Hana")
    assert r.stdout.splitlines()[0] == "added player Hana with the yellow family"
    assert "senji.family-excluded" in r.stdout
    r = cli("remove", setup, "Hana")
    assert r.stdout.splitlines()[0] == "removed player Hana"
    r = cli("add", setup, "Mutsu", "--player", "Kenji", "--count", "2")
    assert r.stdout.splitlines()[0] == "added Mutsu to Kenji's provinces with 2 units"
    assert "{province: Mutsu, units: 2}" in read(setup)
    one_error_line(cli("add", setup, "Kyusyu"), "unknown family, samurai or province 'Kyusyu' (did you mean 'Kyushu'?)")
    one_error_line(cli("add", setup, "Owari", "--player", "Nobody"), "no player 'Nobody' in the setup")
    one_error_line(cli("remove", setup, "Tosa"), "no 'Tosa' in the setup")
    one_error_line(cli("add", setup, "Owari", "--models", "3"), "--models applies to kensei troops")


# -- satsuma -------------------------------------------------------------------------------------


def test_satsuma_new_add_remove_set(cli, work):
    deck = work / "deck.yaml"
    r = cli("new", "satsuma", "--side", "Samurai", "--name", "Rebels", "-o", deck)
    assert r.code == 0, r.stderr
    assert read(deck) == "system: satsuma\nname: Rebels\nside: samurai\ndeck: standard\n"
    assert "legal" in r.stdout and "cards 46" in r.stdout
    # the published deck is changed only on purpose
    one_error_line(
        cli("add", deck, "Bushido"),
        "this is the published samurai deck ('deck: standard'); adding a card makes it a variant deck "
        "(pass --variant to write its 46 cards out under 'cards:' first)",
    )
    one_error_line(cli("remove", deck, "Bushido"), "removing a card makes it a variant deck")
    assert read(deck) == "system: satsuma\nname: Rebels\nside: samurai\ndeck: standard\n"
    one_error_line(
        cli("add", deck, "Meiji Emperor", "--variant"),
        "'Meiji Emperor' is a card of the imperial deck, not the samurai deck",
    )
    r = cli("add", deck, "bushido", "--variant")
    assert r.code == 0
    assert "wrote the published samurai deck (46 cards) out under 'cards:'" in r.stdout
    assert "added 1 Bushido (2 in the deck)" in r.stdout
    assert "satsuma.variant-size: variant deck of 47 cards; the published samurai deck has 46" in r.stdout
    text = read(deck)
    assert text.startswith("system: satsuma\nname: Rebels\nside: samurai\ncards:\n  Takamori Saigo: 1\n")
    assert "  Bushido: 2\n" in text and "deck:" not in text and text.count(": 1\n") == 45
    r = cli("remove", deck, "Takamori Saigo")
    assert r.code == 0 and "Takamori Saigo" not in read(deck)
    r = cli("remove", deck, "Bushido", "--all")
    assert r.code == 0 and "removed 2 Bushido" in r.stdout
    r = cli("set", deck, "side", "imperial")
    assert r.code == 0 and "satsuma.wrong-side" in r.stdout
    one_error_line(cli("set", deck, "side", "rebels"), "side must be samurai or imperial, not 'rebels'")
    one_error_line(cli("add", deck, "Bushidoo", "--variant"), "unknown card 'Bushidoo' (did you mean 'Bushido'?)")


def test_satsuma_why(cli, work):
    deck = work / "satsuma-samurai.yaml"
    before = read(deck)
    r = cli("why", deck, "Bushido")
    assert r.code == 0
    assert r.stdout.splitlines()[0] == (
        "yes: 1 Bushido can be added; the deck would have 47 cards as a variant "
        "deck ('daimyo add --variant' writes it out)"
    )
    r = cli("why", deck, "Meiji Emperor")
    assert r.code == 1
    assert r.stdout.splitlines()[:2] == [
        "no: adding 1 Meiji Emperor would break 1 rule:",
        "  satsuma.wrong-side: 'Meiji Emperor' is a card of the imperial deck, not the samurai deck "
        "(Satsuma Rebellion rulebook, The Imperial deck, line 113)",
    ]
    assert read(deck) == before


# -- every system -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name, card",
    [("senshiai-northern-host", "Warriors"), ("herocard-samurai", "Overhand Thrust"), ("satsuma-samurai", "Bushido")],
)
def test_edits_refuse_files_that_do_not_parse(cli, work, name, card):
    f = work / f"{name}.yaml"
    broken = read(f).replace("system:", "system: [", 1)
    f.write_text(broken, encoding="utf-8")
    for args in (
        ("add", f, card, "--variant") if "satsuma" in name else ("add", f, card),
        ("remove", f, card),
        ("set", f, "name", "X"),
        ("why", f, card),
    ):
        r = cli(*args)
        assert r.code == 2 and "YAML syntax" in r.stderr and "Traceback" not in r.stderr, r
        assert read(f) == broken
    # a file that parses but is not a list of its system is refused too
    wrong = read(work / f"{name}.yaml").replace("system: [", "system:") + "colour: red\n"
    f.write_text(wrong, encoding="utf-8")
    r = cli("add", f, card, "--variant") if "satsuma" in name else cli("add", f, card)
    assert r.code == 2 and "unknown key 'colour'" in r.stderr
    assert read(f) == wrong


@pytest.mark.parametrize("command", ["new", "add", "remove", "set", "why"])
def test_every_command_has_help(cli, command):
    r = cli(command, "--help")
    assert r.code == 0
    assert "Usage:" in r.stdout and len(r.stdout.splitlines()) > 5


def test_options_show_senshiai_costs_as_the_cards_print_them(cli):
    """Senshiai prints costs as Roman numerals, or N for none (a Capital): `options` says so."""
    r = cli("options", str(ROOT / "examples" / "senshiai-northern-host.yaml"))
    lines = {line[2:].split("  ")[0].strip(): line for line in r.stdout.splitlines() if line[:2] in ("+ ", "- ")}
    assert "cost N " in lines["Capital of the North"]
    assert "cost II " in lines["Native Barbarian"] and "cost I " in lines["Rice Fields"]
    assert not any(re.search(r"cost \d", line) for line in lines.values())
