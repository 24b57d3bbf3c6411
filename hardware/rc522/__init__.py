"""The MFRC522 reader driver: register transport (on the ``mfrc522`` package) and the ISO 14443-3 layer."""
