"""Co-directors, handing an event over, and messages to every entrant, as the fold reads them."""

from __future__ import annotations

import pytest

from pbem.tournaments.core.errors import IllegalEvent, InvalidEvent

from .logs import Log


def test_the_lead_adds_a_co_director_and_hands_the_event_over():
    log = Log().register("ann", "bob")
    log.director("add-director", by_player="dee", player="cy", name="Cy")
    assert log.tournament().directors == ("dee", "cy")

    log.director("hand-over", by_player="dee", player="cy", name="Cy")

    assert log.tournament().directors == ("cy",)


def test_only_the_lead_adds_directors():
    log = Log().register("ann", "bob")
    log.director("add-director", by_player="dee", player="cy", name="Cy")
    log.director("add-director", by_player="cy", player="di", name="Di")
    with pytest.raises(IllegalEvent, match="only the lead director adds directors"):
        log.tournament()


def test_a_director_is_added_once():
    log = Log().register("ann")
    log.director("add-director", by_player="dee", player="cy", name="Cy")
    log.director("add-director", by_player="dee", player="cy", name="Cy")
    with pytest.raises(IllegalEvent, match="already directs"):
        log.tournament()


def test_messages_are_kept_in_order_with_who_and_the_subject():
    log = Log().register("ann", "bob")
    log.add("director", {"by": "Dee", "reason": "Welcome", "action": "message",
                         "text": "Round 1 starts on Monday."})
    log.add("director", {"by": "Dee", "reason": "Holidays", "action": "message",
                         "text": "No deadlines over Christmas."})

    (first, second) = log.tournament().messages
    assert (first.by, first.subject, first.text) == ("Dee", "Welcome", "Round 1 starts on Monday.")
    assert second.subject == "Holidays" and second.seq > first.seq


def test_a_message_without_text_does_not_fold():
    log = Log()
    log.add("director", {"by": "Dee", "reason": "Empty", "action": "message", "text": "  "})
    with pytest.raises(InvalidEvent, match="a message needs a text"):
        log.tournament()
