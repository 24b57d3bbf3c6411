"""Club night: many tables, one broker, one hub (docs/club.md).

A table that has joined a club (``companion club join``) writes every change
its session logs into an outbox in its own SQLite, in the same transaction
(:mod:`companion.club.outbox`); a publisher thread sends the outbox, in order,
to the club's Mosquitto broker with paho-mqtt and forgets an entry only when
the hub has acknowledged it.  The hub (:mod:`companion.club.hub`) stores every
table's games in its own SQLite, acknowledges, and serves read-only pages
(:mod:`companion.club.web`) that show exactly what each table's shared screen
shows.  :mod:`companion.club.broker` writes the broker's configuration
(password file, ACL, listener) and the hub's systemd unit.

A table opens no network listener: paho-mqtt is a client.  A table that has
joined no club runs none of this.
"""
