"""The table protocol: the driver, a networked seat, sessions, audit, resume and simulation."""
