"""A real IMAP server for tests: Debian's dovecot, started on 127.0.0.1 with a config, a
passwd-file user and a self-signed certificate made for the test, and stopped after it."""

from __future__ import annotations

import grp
import os
import pwd
import shutil
import signal
import socket
import ssl
import subprocess
import tempfile
import time
from pathlib import Path

import trustme

from tests.smtp_sink import free_port

DOVECOT = Path("/usr/sbin/dovecot")
USER, PASSWORD = "pbem", "imap-test-password"

CONFIG = """\
base_dir = {root}/run
state_dir = {root}/state
log_path = {root}/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = required
ssl_cert = <{root}/cert.pem
ssl_key = <{root}/key.pem
ssl_min_protocol = TLSv1.2
disable_plaintext_auth = yes
auth_mechanisms = plain
default_internal_user = {internal}
default_internal_group = {internal_group}
default_login_user = {login}
first_valid_uid = {uid}
last_valid_uid = 0
mail_location = maildir:~/Maildir
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {root}/passwd
}}
userdb {{
  driver = static
  args = uid={uid} gid={gid} home={root}/home/%u
}}
protocol imap {{
  imap_idle_notify_interval = 1 secs
}}
service imap-login {{
  inet_listener imap {{
    port = 0
  }}
  inet_listener imaps {{
    port = {port}
    ssl = yes
  }}
}}
service anvil {{
  chroot =
}}
service imap-login {{
  chroot =
}}
"""


class Dovecot:
    """One dovecot instance with one mailbox user; `maildir` is that user's mailbox on disk."""

    def __init__(self) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="pbem-dovecot-"))
        self.root.chmod(0o755)
        self.port = free_port()
        self.ca = trustme.CA()
        self.cafile = self.root / "ca.pem"
        self.process: subprocess.Popen[bytes] | None = None
        self.maildir = self.root / "home" / USER / "Maildir"

    @property
    def url(self) -> str:
        """The PBEM_IMAP_URL that reaches the user's inbox, trusting the test's CA."""
        return (f"imaps://{USER}:{PASSWORD}@127.0.0.1:{self.port}/INBOX"
                f"?processed=Processed&cafile={self.cafile}")

    def start(self) -> Dovecot:
        """Write the config, certificate and user, and start the server; wait until it listens."""
        cert = self.ca.issue_cert("127.0.0.1", "localhost")
        cert.private_key_pem.write_to_path(str(self.root / "key.pem"))
        cert.cert_chain_pems[0].write_to_path(str(self.root / "cert.pem"))
        self.ca.cert_pem.write_to_path(str(self.cafile))
        (self.root / "passwd").write_text(f"{USER}:{{PLAIN}}{PASSWORD}::::::\n")
        if os.geteuid() == 0:  # root: dovecot's own users, and the mailbox owned by dovecot
            mail = pwd.getpwnam("dovecot")
            internal, login = "dovecot", "dovenull"
        else:
            mail = pwd.getpwuid(os.geteuid())
            internal = login = mail.pw_name
        group = mail.pw_gid
        for sub in ("cur", "new", "tmp"):
            (self.maildir / sub).mkdir(parents=True, exist_ok=True)
        for path in (self.root / "home", self.root / "home" / USER, self.maildir,
                     *(self.maildir / s for s in ("cur", "new", "tmp"))):
            os.chown(path, mail.pw_uid, group)
        (self.root / "dovecot.conf").write_text(CONFIG.format(
            root=self.root, port=self.port, uid=mail.pw_uid, gid=group, internal=internal,
            internal_group=grp.getgrgid(pwd.getpwnam(internal).pw_gid).gr_name, login=login,
        ))
        with (self.root / "output.txt").open("wb") as output:
            self.process = subprocess.Popen(
                [str(DOVECOT), "-F", "-c", str(self.root / "dovecot.conf")],
                stdout=output, stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return self
            except OSError:
                if self.process.poll() is not None:
                    break
                time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"dovecot did not start: {self.log()}")

    def tls_proxy_contexts(self) -> tuple[ssl.SSLContext, ssl.SSLContext]:
        """TLS contexts for a proxy in front of this server: serving as it, and reaching it."""
        serving = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        self.ca.issue_cert("127.0.0.1").configure_cert(serving)
        reaching = ssl.create_default_context(cafile=str(self.cafile))
        return serving, reaching

    def via(self, port: int) -> str:
        """The mailbox URL through another port (a proxy)."""
        return self.url.replace(f":{self.port}/", f":{port}/")

    def log(self) -> str:
        """What dovecot wrote to its log and its output."""
        found = [self.root / name for name in ("output.txt", "dovecot.log")]
        return "".join(p.read_text() for p in found if p.exists())

    def deliver(self, raw: bytes, *, mtime: float | None = None, name: str | None = None) -> None:
        """Put a mail in the inbox as a delivery agent does (INTERNALDATE is its mtime)."""
        unique = name or f"{time.time_ns()}.{os.getpid()}.test"
        path = self.maildir / "new" / unique
        tmp = self.maildir / "tmp" / unique
        tmp.write_bytes(raw)
        mail = pwd.getpwuid(os.stat(self.maildir).st_uid)
        os.chown(tmp, mail.pw_uid, mail.pw_gid)
        if mtime is not None:
            os.utime(tmp, (mtime, mtime))
        tmp.rename(path)

    def count(self, folder: str = "") -> int:
        """How many mails a folder holds on disk ("" is the inbox)."""
        base = self.maildir / f".{folder}" if folder else self.maildir
        return sum(len(list((base / sub).iterdir())) for sub in ("cur", "new")
                   if (base / sub).exists())

    def stop(self) -> None:
        """Stop the server and remove its files."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.root, ignore_errors=True)
