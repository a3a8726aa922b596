"""The classroom: the course on a JupyterHub on one machine (``make hub``, ``tools/hub.py``).

- ``learners``: who the learners are (a count or a list of names), their passwords and the hashes the hub
  keeps; the OS accounts (one per learner) and their copies of the learner notebooks;
- ``cgroups``: the memory controller (cgroup v1 or v2), one group per learner's server;
- ``install``: the hub root, everything the learners' servers run from (a copy of Python, a venv, the course);
- ``hubside``: the authenticator and spawner the hub itself imports (copied into the hub root);
- ``server``: the hub as a process (configuration, start on 127.0.0.1, stop with every learner's server);
- ``client``: a learner as a program: log in, start the server, run a notebook's cells through the kernel.

It imports nothing from ``lesson_lib`` (the hub serves the course; it is not part of it), and nothing
outside the standard library except in ``client`` (requests, websocket-client) and in ``hubside``
(jupyterhub, which runs only inside the hub).
"""
