// Migration 13 (issue 23, point 3: publishing 100 000 keys on PostgreSQL under 2 s): a chunk
// no longer marks each of its keys. Until now publishing set `exposure_keys.chunk_index` on
// every key it published, and on PostgreSQL that update could never be HOT (the column is in
// the conditions of both partial indexes): a new row version and three index entries per key,
// two thirds of a publishing run (docs/benchmarks.md, "Publishing on PostgreSQL").
//
// Now the publisher sweeps the keys in id order. `key_sweep.swept_to_id` is the highest id it
// has passed; a chunk records the range of ids its sweep passed (`chunks.first_key_id`,
// `last_key_id`). Of the keys a sweep passes,
// - a key ready then (expired at least the embargo ago, not older than the publishing age) is in
//   that chunk, and nothing is written for it;
// - a key not ready then (still embargoed, or already too old) goes to `held_keys`; a later chunk
//   takes it when it is ready, deletes it from there and marks its `chunk_index`;
// - a copy of a key already published is marked with that earlier chunk (`chunk_index`).
// So a key is published when its `chunk_index` is set, or when the sweep passed it and did not
// hold it; it is in the chunk whose range holds its id unless its `chunk_index` says another.
//
// The duplicate check ("a key uploaded twice is published once") reads a full index on
// `(key_data, id)` (copies in id order, so the first published one ends the walk), which an upload enters instead of the partial index of unpublished keys it
// entered before: an upload writes as many index entries as it did.
//
// A held key is its id alone: its expiry stays on its row (held keys are few: those of the
// last day or so, still embargoed when swept). Keys unpublished at migration time are all
// held, and the sweep starts above the highest id.
extension Migrations {
    static func keySweep(_ d: SQLDialect) -> String {
        let int = d.integer
        return """
            CREATE TABLE key_sweep (
                id \(int) PRIMARY KEY NOT NULL CHECK (id = 1),
                swept_to_id \(int) NOT NULL CHECK (swept_to_id >= 0)
            );
            INSERT INTO key_sweep (id, swept_to_id) SELECT 1, coalesce(max(id), 0) FROM exposure_keys;
            CREATE TABLE held_keys (
                id \(int) PRIMARY KEY NOT NULL REFERENCES exposure_keys (id) ON DELETE CASCADE
            );
            INSERT INTO held_keys (id) SELECT id FROM exposure_keys WHERE chunk_index IS NULL;
            ALTER TABLE chunks ADD COLUMN first_key_id \(int);
            ALTER TABLE chunks ADD COLUMN last_key_id \(int);
            CREATE INDEX chunks_by_last_key ON chunks (last_key_id);
            DROP INDEX exposure_keys_unpublished;
            DROP INDEX exposure_keys_published_by_data;
            CREATE INDEX exposure_keys_by_data ON exposure_keys (key_data, id);
            """
    }
}
