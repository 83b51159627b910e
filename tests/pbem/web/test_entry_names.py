"""Names at entry: the name a director gives is kept, and whoever has none is asked once."""

from __future__ import annotations

from ..pipe import csrf, csrf_in, link_in, outbox, path_of, sign_in


def run(runner, *args):
    return runner.invoke(args=list(args))


def test_names_given_to_register_by_mail_are_kept_and_shown(app, client, runner):
    made = run(runner, "tournament", "create", "Spring open", "--system", "swiss",
               "--kind", "martian-frisby", "--rounds", "2",
               "--director", "Dee Director <dee@example.org>")
    public_id = made.output.split()[0]
    mailed = run(runner, "tournament", "register", public_id, "Ann Archer <ann@example.org>",
                 "Bob Bowman <bob@example.org>", "--mail")
    for email in ("ann@example.org", "bob@example.org"):
        link = link_in(outbox(app, purpose="register", to_addr=email)[-1].body_text,
                       "tournaments/register")
        confirm = client.get(path_of(link)).get_data(as_text=True)
        assert "Your name" not in confirm  # the name is known: nobody is asked again
        done = client.post(path_of(link), data={"csrf": csrf_in(confirm)})
        assert done.status_code == 303

    home = client.get(f"/tournaments/{public_id}").get_data(as_text=True)
    assert mailed.output.strip() == "2 registration links mailed"
    assert "Directed by Dee Director." in home
    assert "Ann Archer" in home and "Bob Bowman" in home
    assert "Player " not in home


def test_the_registration_page_asks_for_a_name_when_none_is_known(app, client):
    sign_in(app, client, "dee@example.org")
    page = client.get("/tournaments/new").get_data(as_text=True)
    made = client.post("/tournaments/new", data={
        "name": "Winter cup", "system": "swiss", "kind": "martian-frisby", "rounds": "2",
        "deadline_hours": "48", "timeout_policy": "forfeit", "csrf": csrf_in(page)})
    public_id = made.headers["Location"].rsplit("/", 1)[-1]
    home = client.get(f"/tournaments/{public_id}").get_data(as_text=True)
    client.post(f"/tournaments/{public_id}/register",
                data={"email": "cy@example.org", "csrf": csrf_in(home)})
    visitor = app.test_client()
    path = path_of(link_in(outbox(app, purpose="register", to_addr="cy@example.org")[-1]
                           .body_text, "tournaments/register"))

    asked = visitor.get(path).get_data(as_text=True)
    nameless = visitor.post(path, data={"csrf": csrf_in(asked)})
    named = visitor.post(path, data={"csrf": csrf_in(asked), "name": "Cy Clops"})
    entrants = client.get(f"/tournaments/{public_id}").get_data(as_text=True)

    assert "Your name, as the other players will see it" in asked
    assert nameless.status_code == 422
    assert "give your name, as the other players will see it" in nameless.get_data(as_text=True)
    assert named.status_code == 303
    assert "Entrants (1)" in entrants and "Cy Clops" in entrants


def test_signing_in_asks_once_for_a_name(app, client):
    def open_link() -> tuple[str, str]:
        client.post("/signin", data={"email": "eve@example.org", "csrf": csrf(client)})
        mail = outbox(app, purpose="signin", to_addr="eve@example.org")[-1]
        path = path_of(link_in(mail.body_text, "signin"))
        return path, client.get(path).get_data(as_text=True)

    path, first = open_link()
    client.post(path, data={"csrf": csrf_in(first), "name": "Eve Everest"})
    me = client.get("/me").get_data(as_text=True)
    client.post("/signout", data={"csrf": csrf_in(me)})
    _, second = open_link()

    assert "Your name, as other players will see it" in first
    assert "<h1>Eve Everest" in me
    assert "Your name" not in second
