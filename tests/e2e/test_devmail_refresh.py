"""The local mailbox page shows a new mail without the reader reloading it."""

from __future__ import annotations

import threading
from dataclasses import replace
from datetime import UTC, datetime

import pytest
from werkzeug.serving import make_server

from pbem.mail import outbox
from pbem.mail.transport import transport_for
from pbem.play.start import start_game
from tests.conftest import make_app
from tests.smtp_sink import free_port


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_the_mailbox_page_shows_a_mail_sent_after_it_was_opened(settings, browser):
    settings = replace(settings, smtp_url=None)
    app = make_app(settings)
    app.config.update(DEBUG=True, TESTING=False)
    port = free_port()
    server = make_server("127.0.0.1", port, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    page = browser.new_page()
    try:
        page.goto(f"http://127.0.0.1:{port}/dev/mail/")
        assert "Local mailbox (0)" in page.inner_text("h1")
        svc = app.extensions["pbem"]
        players = [("ann@example.org", "Ann"), ("bob@example.org", "Bob")]
        game = svc.write(
            lambda s: start_game(s, svc.ctx, "martian-frisby", players).game.public_id
        )
        hop = transport_for(None, settings.maildir)
        outbox.deliver_due(svc.db, hop, settings.mail_from, now=lambda: datetime.now(UTC))
        # Nobody reloads: the page itself must bring the new mails into view.
        page.get_by_text(f"Martian Frisby game {game}").first.wait_for(timeout=20000)
        assert "Local mailbox (3)" in page.inner_text("h1")
    finally:
        page.close()
        server.shutdown()
        thread.join()
        app.extensions["pbem"].db.dispose()
