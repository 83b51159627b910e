"""/dev/mail: read the local maildir in the browser (debug mode only)."""

from __future__ import annotations

import email
import mailbox
from email.message import EmailMessage
from email.policy import default
from typing import Any

from flask import Blueprint, abort, current_app, render_template

from ..services import services

bp = Blueprint("devmail", __name__, url_prefix="/dev/mail")


def enabled() -> None:
    """Only a debug server shows mail, and only when mail stays local."""
    if not current_app.debug or services().settings.smtp_url:
        abort(404)


def messages() -> list[tuple[str, EmailMessage]]:
    """Every message in the maildir, newest first."""
    path = services().settings.maildir
    if not path.exists():
        return []
    box = mailbox.Maildir(path, factory=None, create=False)
    found = []
    # Maildir keys start with the delivery time, so sorting them sorts by arrival.
    for key in sorted(box.keys(), reverse=True):
        with box.get_file(key) as f:
            message = email.message_from_bytes(f.read(), policy=default)
        assert isinstance(message, EmailMessage)
        found.append((key, message))
    return found


@bp.get("/")
def index() -> Any:
    """The list of mails."""
    enabled()
    return render_template("devmail_index.html", messages=messages())


@bp.get("/count")
def count() -> Any:
    """How many mails there are: the list page polls it to show a new mail at once."""
    enabled()
    return {"count": len(messages())}


@bp.get("/<key>")
def show(key: str) -> Any:
    """One mail: headers, text and HTML parts."""
    enabled()
    for found_key, message in messages():
        if found_key == key:
            text = message.get_body(("plain",))
            html = message.get_body(("html",))
            return render_template(
                "devmail_show.html",
                message=message,
                text=text.get_content() if text else "",
                html=html.get_content() if html else None,
            )
    abort(404)
