"""Reading reply mails (pbem/mail/inbound.py): where the reference hides, and the move lines."""

from __future__ import annotations

from email import message_from_bytes
from email.message import EmailMessage
from email.policy import default

import pytest

from pbem.mail import inbound

REF = "6615c1807f.1.12.abcdefghijklmnop"
OTHER = "0123456789.0.3.qrstuvwxyz234567"


def mail(body: str = "a1-a4 b1-b6\n", subtype: str = "plain", **headers: str) -> bytes:
    message = EmailMessage()
    message["From"] = headers.pop("From", "Ann <Ann@Example.ORG>")
    message["Subject"] = headers.pop("Subject", "Re: your move")
    message["Message-ID"] = headers.pop("Message_ID", "<1@player.example>")
    for name, value in headers.items():
        message[name.replace("_", "-")] = value
    message.set_content(body, subtype=subtype)
    return bytes(message)


@pytest.mark.parametrize("header", inbound.ADDRESS_HEADERS)
def test_the_reference_is_read_from_any_address_header(header):
    reply = inbound.parse(mail(**{header.replace("-", "_"): f"pbem+{REF}@example.org"}))
    assert reply.ref == REF


def test_the_first_address_header_in_order_wins_and_the_subject_is_the_fallback():
    both = mail(To=f"pbem+{REF}@example.org", Cc=f"pbem+{OTHER}@example.org")
    assert inbound.parse(both).ref == REF
    later = mail(To="someone@example.org", Delivered_To=f"pbem+{OTHER}@example.org")
    assert inbound.parse(later).ref == OTHER
    subject = mail(To="pbem@example.org", Subject=f"Re: [Martian Frisby] your move #{REF}")
    assert inbound.parse(subject).ref == REF
    preferred = mail(To=f"pbem+{OTHER}@example.org", Subject=f"Re: #{REF}")
    assert inbound.parse(preferred).ref == OTHER


def test_a_mail_without_a_reference_has_none():
    reply = inbound.parse(mail(To="pbem@example.org", Subject="Re: hello +x@y #nothing"))
    assert reply.ref is None


def test_references_are_read_in_any_case_and_kept_in_lower_case():
    reply = inbound.parse(mail(To=f"PBEM+{REF.upper()}@EXAMPLE.ORG"))
    assert reply.ref == REF
    assert inbound.parse(mail(Subject=f"RE: #{REF.upper()}")).ref == REF


def test_the_sender_subject_and_message_id_are_kept():
    reply = inbound.parse(mail(To=f"pbem+{REF}@example.org", Message_ID=" <42@player.example> "))
    assert reply.sender == "ann@example.org"
    assert reply.subject == "Re: your move"
    assert reply.message_id == "<42@player.example>"
    assert reply.lines == ("a1-a4 b1-b6",)


def test_an_html_reply_drops_the_quoted_original_scripts_and_tags():
    body = (
        "<html><head><style>p {color: red}</style></head><body>"
        "<p>a1-a4 b1-b6</p><div>R&#32;stop<br>H roll<br/></div>"
        "<script>alert('x')</script>"
        "<blockquote>b1-b2 quoted</blockquote>"
        '<div class="gmail_quote">On Monday pbem wrote: a8-a7</div></body></html>'
    )
    message = message_from_bytes(mail(body, "html"), policy=default)
    assert isinstance(message, EmailMessage)
    text = inbound.body_text(message)
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    assert lines == ["a1-a4 b1-b6", "R stop", "H roll"]


def test_the_plain_text_part_is_preferred_to_the_html_part():
    message = EmailMessage()
    message["From"] = "ann@example.org"
    message.set_content("H roll\n")
    message.add_alternative("<p>R stop</p>", subtype="html")
    assert inbound.parse(bytes(message)).lines == ("H roll",)


def test_a_mail_without_a_readable_text_body_has_no_lines():
    message = EmailMessage()
    message["From"] = "ann@example.org"
    message.set_content(b"\x00\x01", maintype="application", subtype="octet-stream")
    assert inbound.parse(bytes(message)).lines == ()
    unknown_charset = (
        b"From: ann@example.org\r\nContent-Type: text/plain; charset=x-no-such-charset\r\n"
        b"\r\nH roll\r\n"
    )
    assert inbound.parse(unknown_charset).lines == ()


@pytest.mark.parametrize(
    "intro",
    [
        "On Mon, 23 Nov 2026, pbem wrote:",
        "-----Original Message-----",
        "From: pbem <pbem@example.org>",
        "Le lun. 23 nov. 2026, pbem a écrit :",
        "Am Mo., 23. Nov. 2026 schrieb pbem <pbem@example.org>:",
        "--",
        "> a8-a7",
    ],
)
def test_the_move_lines_stop_at_each_clients_quote_intro(intro):
    assert inbound.move_lines(f"H roll\nR stop\n{intro}\nK stop\n") == ("H roll", "R stop")


def test_the_move_lines_are_the_first_paragraph_of_at_most_ten_lines():
    assert inbound.move_lines("\r\n\r\n  H roll  \r\nR stop\r\n\r\nthanks\r\n") == (
        "H roll",
        "R stop",
    )
    many = "\n".join(f"line {i}" for i in range(15))
    assert inbound.move_lines(many) == tuple(f"line {i}" for i in range(10))
    assert inbound.move_lines("") == ()
    assert inbound.move_lines("a line mentioning --\nnext") == ("a line mentioning --", "next")


def test_a_mail_without_sender_subject_or_message_id_reads_them_as_empty():
    reply = inbound.parse(f"To: pbem+{REF}@example.org\r\n\r\nH roll\r\n".encode())
    assert (reply.ref, reply.sender, reply.subject, reply.message_id) == (REF, "", "", "")
    assert reply.lines == ("H roll",)
