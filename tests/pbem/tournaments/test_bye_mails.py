"""A player with a bye is told so in the round's mail: the points, and why there is no game."""

from __future__ import annotations

from pbem.play import director as games
from pbem.tournaments import directing, simulate
from pbem.tournaments.log import load as load_tournament

from ..pipe import svc_of
from .test_words import deliver, games_of, html_of, new_event, text_of

PAIRING_BYE = "Round 1: a bye of 1 point: no game (nobody was left to pair you with)"


def test_the_round_mail_tells_the_player_left_over_of_their_bye_and_nobody_else(
    smtp_app, smtp_sink
):
    public_id = new_event(smtp_app, 3, kind="martian-frisby", rounds=2)
    (game, seated), = games_of(smtp_app, public_id)
    (left_over,) = {"P0", "P1", "P2"} - set(seated)
    paired = [m for m in deliver(smtp_app, smtp_sink)
              if str(m["Subject"]) == "[Test cup] round 1 is paired"]

    (mine,) = [m for m in paired if str(m["To"]) == f"{left_over.lower()}@example.org"]
    assert f"\n\nYour byes:\n  {PAIRING_BYE}\n\nStandings with every tie-break" in text_of(mine)
    assert f"<li>{PAIRING_BYE}</li>" in html_of(mine)
    others = [m for m in paired if m is not mine]
    assert len(others) == 3  # the two who play, and the director
    assert all("bye" not in text_of(m) for m in others)


def test_points_a_director_gives_are_mailed_with_who_gave_them_and_listed_in_the_round_mail(
    smtp_app, smtp_sink
):
    public_id = new_event(smtp_app, 4, kind="martian-frisby", rounds=2)
    svc = svc_of(smtp_app)
    with svc.db.read() as s:
        resting = load_tournament(s, public_id).state.tables[0].seats[0]
    svc.write(lambda s: directing.bye(s, svc.ctx, load_tournament(s, public_id, for_update=True),
                                      games.Director("Dee"), resting, 0.5, "asked for a rest"))
    for game, _ in games_of(smtp_app, public_id):
        simulate.play_out(svc, game)
    sent = deliver(smtp_app, smtp_sink)
    with svc.db.read() as s:
        name = load_tournament(s, public_id).state.entrant(resting).name

    (mine,) = [m for m in sent if str(m["Subject"]) == "[Test cup] round 2 is paired"
               and str(m["To"]) == f"{name.lower()}@example.org"]
    # Points a director gives are no pairing bye: the player is still paired, and told both.
    assert ("Your byes:\n  0.5 points without a game, given by Dee\n\n" in text_of(mine))
    assert "Round 2, against " in text_of(mine)
    (told,) = [text_of(m) for m in sent if str(m["Subject"]) == "[Test cup] points without a game"]
    assert ("Dee gave you 0.5 points without a game in Test cup (asked for a rest). You are "
            "paired as before.") in " ".join(told.split())
