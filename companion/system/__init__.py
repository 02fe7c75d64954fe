"""The operating system's side: the configuration file and its checks (config.py, schema.py, defaults.toml),
logging to the terminal or the journal (logs.py), telling systemd we are ready and alive (notify.py), and which
optional libraries a way of running needs (extras.py).

Below the App and the command line: it may import the catalogs and display/'s panel facts (to check a display's
size), never the game flow, the store or the engine.
"""
