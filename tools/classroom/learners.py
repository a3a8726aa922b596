"""The learners: names from a count or a list, a random password each, OS accounts, notebook copies.

One OS account per learner: each learner's server runs as that account, so one learner cannot read
another's files (homes are 0700). The accounts get no OS password (the account is locked: no ssh, no
console login); the hub checks the learner's password itself, against a salted scrypt hash
(``hubside.LearnerAuthenticator``). The plain passwords are for the instructor only, in a 0600 file.
"""

from __future__ import annotations

import grp
import hashlib
import hmac
import os
import pwd
import re
import secrets
import shutil
import subprocess
from pathlib import Path

NAME = re.compile(r"[a-z][a-z0-9]{0,19}")
GROUP = "boundary-lab-learners"  # every account this tool made is in it; no other account is touched
PREFIX = "learner"
MAX_LEARNERS = 200
COPY_FOLDER = "boundary-lab"  # in each home: the learner's copy of the notebooks
SCRYPT = {"n": 2**14, "r": 8, "p": 1}


class LearnerError(ValueError):
    """A bad learner list or an account that cannot be used: the message names it."""


def parse_learners(spec: str, prefix: str = PREFIX) -> list[str]:
    """``"3"`` gives ``learner1..learner3``; ``"alice,bob"`` gives those names (checked, no duplicates)."""
    spec = spec.strip()
    if spec.isdigit():
        count = int(spec)
        if not 1 <= count <= MAX_LEARNERS:
            raise LearnerError(f"{spec!r}: a count from 1 to {MAX_LEARNERS}")
        return [f"{prefix}{i}" for i in range(1, count + 1)]
    names = [name.strip() for name in spec.split(",")]
    for name in names:
        if not NAME.fullmatch(name):
            raise LearnerError(
                f"{spec!r}: {name!r} is not a learner name (a lowercase letter, then up to 19 "
                "lowercase letters or digits)"
            )
    if len(set(names)) != len(names):
        raise LearnerError(f"{spec!r}: a name appears twice")
    if len(names) > MAX_LEARNERS:
        raise LearnerError(f"{spec!r}: more than {MAX_LEARNERS} learners")
    return names


def new_password() -> str:
    """A random password of 12 characters from an alphabet without look-alikes (about 62 bits)."""
    alphabet = "abcdefghijkmnpqrstuvwxyz23456789"
    return "".join(secrets.choice(alphabet) for _ in range(12)) + "-" + secrets.token_hex(1)


def hash_password(password: str) -> str:
    """``scrypt$<salt hex>$<hash hex>``: what the hub keeps; the password itself is not stored there."""
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(password.encode(), salt=salt, **SCRYPT)
    return f"scrypt${salt.hex()}${digest.hex()}"


def verify_password(password: str, stored: str) -> bool:
    """True when ``password`` is the one ``stored`` (from ``hash_password``) was made from."""
    kind, _, rest = stored.partition("$")
    salt_hex, _, digest_hex = rest.partition("$")
    if kind != "scrypt" or not salt_hex or not digest_hex:
        return False
    digest = hashlib.scrypt(password.encode(), salt=bytes.fromhex(salt_hex), **SCRYPT)
    return hmac.compare_digest(digest.hex(), digest_hex)


def write_private(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` with mode 0600 from the start (never readable by others, even briefly)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists():
        path.unlink()
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(text)


def ensure_group() -> None:
    try:
        grp.getgrnam(GROUP)
    except KeyError:
        subprocess.run(["groupadd", "--system", GROUP], check=True, capture_output=True)


def ensure_account(name: str) -> Path:
    """The learner's OS account (created if absent; locked, home 0700), its home returned.

    An existing account is used only if it is in ``GROUP`` (made by this tool): a system account called
    ``bob`` is never taken over.
    """
    try:
        entry = pwd.getpwnam(name)
    except KeyError:
        subprocess.run(
            ["useradd", "--create-home", "--shell", "/bin/bash", "--gid", GROUP, name],
            check=True, capture_output=True,
        )
        entry = pwd.getpwnam(name)
    else:
        if entry.pw_gid != grp.getgrnam(GROUP).gr_gid:
            raise LearnerError(f"the account {name!r} exists, not made by make hub: choose another name")
    home = Path(entry.pw_dir)
    os.chmod(home, 0o700)
    return home


def remove_account(name: str) -> None:
    """Remove a learner account this tool made, with its home (nothing for any other account)."""
    try:
        entry = pwd.getpwnam(name)
    except KeyError:
        return
    if entry.pw_gid != grp.getgrnam(GROUP).gr_gid:
        return
    subprocess.run(["userdel", "--remove", "--force", name], check=False, capture_output=True)


def learner_notebooks(checkout: Path) -> list[Path]:
    """The notebooks a learner gets, relative to ``notebooks/``: the lessons and the exercises' learner
    copies, both editions; no file under a ``solutions`` folder."""
    root = checkout / "notebooks"
    found = []
    for path in sorted(root.rglob("*.ipynb")):
        relative = path.relative_to(root)
        if "solutions" in relative.parts or ".ipynb_checkpoints" in relative.parts:
            continue
        found.append(relative)
    return found


def copy_notebooks(checkout: Path, home: Path, name: str) -> Path:
    """Copy the learner notebooks into ``home/boundary-lab/notebooks`` once (a learner's edits stay on a
    later run), owned by the learner; the folder is returned."""
    entry = pwd.getpwnam(name)
    target = home / COPY_FOLDER / "notebooks"
    for relative in learner_notebooks(checkout):
        destination = target / relative
        if destination.exists():
            continue
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(checkout / "notebooks" / relative, destination)
    for path in [home / COPY_FOLDER, *(home / COPY_FOLDER).rglob("*")]:
        os.chown(path, entry.pw_uid, entry.pw_gid, follow_symlinks=False)
    return target
