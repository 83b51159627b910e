"""Browser sessions: cookie flags from the base URL, signing out ends them all, links work once."""

from __future__ import annotations

import html
import threading
from dataclasses import replace
from typing import Any

from tests.conftest import make_app

from ..pipe import csrf, csrf_in, link_in, outbox, path_of
from .test_api import bearer

ANN = "ann@example.org"


def mailed_link(app: Any, client: Any, email: str = ANN) -> str:
    """Ask for a sign-in link as a person does; the path of the link mailed."""
    assert client.post("/signin", data={"email": email, "csrf": csrf(client)}).status_code == 200
    return path_of(link_in(outbox(app, purpose="signin", to_addr=email)[-1].body_text, "signin"))


def press_the_button(client: Any, path: str) -> Any:
    """Open a sign-in link and press its button."""
    page = client.get(path)
    assert page.status_code == 200, page.get_data(as_text=True)
    return client.post(path, data={"csrf": csrf_in(page.get_data(as_text=True))})


def signed_in(app: Any, email: str = ANN) -> Any:
    """A browser signed in from a mailed link."""
    client = app.test_client()
    assert press_the_button(client, mailed_link(app, client, email)).status_code == 303
    assert client.get("/me").status_code == 200
    return client


def session_cookie_header(client: Any) -> str:
    """The Set-Cookie header that starts a browser session."""
    response = client.get("/signin")  # the form's CSRF token starts the session
    return next(v for k, v in response.headers.items() if k == "Set-Cookie")


def test_over_https_the_session_cookie_is_secure_same_site_and_hidden_from_scripts(settings):
    app = make_app(replace(settings, base_url="https://pbem.example.org"))
    try:
        header = session_cookie_header(app.test_client())
    finally:
        app.extensions["pbem"].db.dispose()
    assert "; Secure" in header and "; SameSite=Lax" in header and "; HttpOnly" in header


def test_over_plain_http_the_cookie_is_not_marked_secure_but_still_same_site(app, client):
    header = session_cookie_header(client)
    assert "Secure" not in header and "; SameSite=Lax" in header and "; HttpOnly" in header


def test_a_captured_cookie_stops_working_once_its_player_signs_out(app):
    ann = signed_in(app)
    thief = app.test_client()
    thief.set_cookie("session", ann.get_cookie("session").value)
    assert thief.get("/me").status_code == 200, "the copied cookie works, as cookies do"

    page = ann.get("/me").get_data(as_text=True)
    out = ann.post("/signout", data={"csrf": csrf_in(page)}, follow_redirects=True)

    assert "is now signed out on every browser" in html.unescape(out.get_data(as_text=True))
    assert ann.get("/me").status_code == 302
    assert thief.get("/me").status_code == 302, "the captured cookie is dead too"
    assert thief.post("/api/tournaments", json={}).status_code == 403


def test_signing_out_everywhere_ends_every_browser_and_the_api_token(app):
    laptop, phone = signed_in(app), signed_in(app)
    page = laptop.get("/me").get_data(as_text=True)
    assert "Sign out everywhere" in page
    made = laptop.post("/me", data={"csrf": csrf_in(page), "what": "token"})
    secret = made.get_data(as_text=True).split("<code>")[1].split("</code>")[0]
    assert app.test_client().post("/api/tournaments", json={},
                                  headers=bearer(secret)).status_code == 422, "the token works"

    out = laptop.post("/signout", data={"csrf": csrf_in(page), "everywhere": "1"},
                      follow_redirects=True)

    said = html.unescape(out.get_data(as_text=True))
    assert "Signed out everywhere" in said and "your API token is removed" in said
    assert laptop.get("/me").status_code == phone.get("/me").status_code == 302
    refused = app.test_client().post("/api/tournaments", json={}, headers=bearer(secret))
    assert refused.status_code == 403


def test_a_sign_in_link_signs_in_once(app):
    first = app.test_client()
    path = mailed_link(app, first)
    assert press_the_button(first, path).status_code == 303

    other = app.test_client()
    opened = other.get(path)
    page = csrf(other)
    again = other.post(path, data={"csrf": page})

    for response in (opened, again):
        assert response.status_code == 410
        assert "each link signs in once" in html.unescape(response.get_data(as_text=True))
    assert other.get("/me").status_code == 302


def test_one_link_used_twice_at_the_same_moment_signs_in_once(app):
    path = mailed_link(app, app.test_client())
    browsers = [app.test_client() for _ in range(4)]
    forms = [csrf_in(b.get(path).get_data(as_text=True)) for b in browsers]
    gate = threading.Barrier(len(browsers))
    answers: list[int] = []

    def use(browser: Any, token: str) -> None:
        gate.wait(10)
        answers.append(browser.post(path, data={"csrf": token}).status_code)

    threads = [threading.Thread(target=use, args=pair) for pair in zip(browsers, forms,
                                                                        strict=True)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)

    assert sorted(answers) == [303, 410, 410, 410]
    assert sorted(b.get("/me").status_code for b in browsers) == [200, 302, 302, 302]


def test_a_link_mailed_before_signing_out_no_longer_signs_in(app):
    spare = app.test_client()
    path = mailed_link(app, spare)
    ann = signed_in(app)
    ann.post("/signout", data={"csrf": csrf_in(ann.get("/me").get_data(as_text=True))})

    refused = press_link_anyway(spare, path)

    assert refused.status_code == 410
    assert "signed out everywhere after this sign-in link was made" in html.unescape(
        refused.get_data(as_text=True))
    assert spare.get("/me").status_code == 302


def press_link_anyway(client: Any, path: str) -> Any:
    """Post a sign-in link's form without opening it first (its page refuses it)."""
    return client.post(path, data={"csrf": csrf(client)})
