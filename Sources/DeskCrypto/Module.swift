// DeskCrypto: filled in by the foundation work.
