"""`daimyo why`: rules the addition would break block it; rules already short do not."""

import textwrap


def _army(tmp_path, body):
    p = tmp_path / "army.yaml"
    p.write_text(textwrap.dedent(body))
    return p


def test_a_minimum_already_short_does_not_block(cli, tmp_path):
    p = _army(
        tmp_path,
        """\
        system: kensei
        clan: buke
        points: 400
        troops:
          - troop: Taisho Buke
          - troop: Yari Ashigaru
            models: 10
        """,
    )
    res = cli("why", str(p), "Samurai Dai-Katana")
    assert res.code == 0, res
    assert res.stdout.startswith("yes: 3 Samurai Dai-Katana (30 AP) can be added; points would be 100/400 AP")
    assert "still to fix: kensei.units-min: 2 units < 1 per 100 AP of 400 AP rounded up = 4 (short by 2)" in res.stdout


def test_a_maximum_the_addition_breaks_blocks_and_says_by_how_much(cli, tmp_path):
    p = _army(
        tmp_path,
        """\
        system: kensei
        clan: buke
        points: 400
        troops:
          - troop: Taisho Buke
          - troop: Yari Ashigaru
            models: 10
          - troop: Yari Ashigaru
            models: 10
        """,
    )
    res = cli("why", str(p), "Yari Ashigaru")
    assert res.code == 1, res
    assert res.stdout.startswith("no: adding 3 Yari Ashigaru (15 AP) would break 1 rule:")
    assert "kensei.profile-max: Yari Ashigaru: 3 units of this profile > 2 (over by 1)" in res.stdout
