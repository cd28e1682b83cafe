// Migration 12 (issue 21, the tracing indicators' performance): facts the indicators read kept
// on the rows they belong to, by triggers in the same statement as every write that changes
// them (whatever writes it: FollowUpWork, a bulk seed, a test's rows), so a fortnight's
// indicators read one row per case and one index entry per ended follow-up instead of joining
// every (case, follow-up) pair (docs/benchmarks.md, "Tracing indicators").
//
// On `cases`, over the follow-ups naming the case (`follow_up_cases`):
// - `contact_count`: how many; `close_contact_count`: how many are close contacts;
// - `close_reached_in_24h_count`: close contacts reached at most 24 h after the case opened;
// - `first_reached_at_ms`: the first time one of them was reached (NULL: none yet).
// On `follow_ups`, over the cases it names: `cases_first_opened_at_ms` and
// `cases_last_opened_at_ms`, the earliest and latest opening (NULL: none), so "names a case
// opened in [from, to)" needs no look at the cases unless its cases straddle the range.
//
// SQLite has row triggers only: a pair added counts itself in; a pair removed or changed, a
// follow-up's reach changed or a case's opening changed counts the touched rows again. On
// PostgreSQL the pairs' triggers are per statement over the transition tables (a case opened
// with 1 500 contacts updates its row once per insert statement, not 1 500 times).
extension Migrations {
    static func indicatorFacts(_ d: SQLDialect) -> String {
        let int = d.integer
        return """
            ALTER TABLE cases ADD COLUMN contact_count \(int) NOT NULL DEFAULT 0 CHECK (contact_count >= 0);
            ALTER TABLE cases ADD COLUMN close_contact_count \(int) NOT NULL DEFAULT 0 CHECK (close_contact_count >= 0);
            ALTER TABLE cases ADD COLUMN close_reached_in_24h_count \(int) NOT NULL DEFAULT 0
                CHECK (close_reached_in_24h_count >= 0);
            ALTER TABLE cases ADD COLUMN first_reached_at_ms \(int);
            ALTER TABLE follow_ups ADD COLUMN cases_first_opened_at_ms \(int);
            ALTER TABLE follow_ups ADD COLUMN cases_last_opened_at_ms \(int);
            UPDATE cases SET \(caseFacts);
            UPDATE follow_ups SET \(followUpSpan);
            CREATE INDEX follow_ups_ended ON follow_ups (cases_last_opened_at_ms, cases_first_opened_at_ms,
                ended_at_ms, next_due_ms, state, period_ends_on, reached_at_ms, checked_days) WHERE next_due_ms IS NULL;
            CREATE INDEX follow_ups_unreached ON follow_ups (state, reached_at_ms, created_at_ms)
                WHERE state = 'calling' AND reached_at_ms IS NULL;
            \(d.choose(sqlite: sqliteFactTriggers, postgres: postgresFactTriggers))
            """
    }

    /// The bench's switch (`bench followup --trigger-cost`): the statements that drop migration
    /// 12's triggers (and PostgreSQL's trigger functions), to time a write without them.
    package static func dropIndicatorFactTriggers(_ d: SQLDialect) -> [String] {
        let triggers = [
            ("follow_up_cases_facts_added", "follow_up_cases"), ("follow_up_cases_facts_removed", "follow_up_cases"),
            ("follow_up_cases_facts_changed", "follow_up_cases"), ("follow_ups_facts_reached", "follow_ups"),
            ("cases_facts_opened", "cases"),
        ]
        return triggers.flatMap { name, table in
            d == .sqlite ? ["DROP TRIGGER \(name)"] : ["DROP TRIGGER \(name) ON \(table)", "DROP FUNCTION \(name)()"]
        }
    }

    /// The statements that make migration 12's triggers again (after
    /// ``dropIndicatorFactTriggers(_:)``; rows written meanwhile keep stale facts: a bench's only).
    package static func indicatorFactTriggers(_ d: SQLDialect) -> [String] {
        [d.choose(sqlite: sqliteFactTriggers, postgres: postgresFactTriggers)]
    }

    /// A case's facts counted from its pairs (`UPDATE cases SET` this `WHERE …`).
    static let caseFacts = """
        contact_count = (SELECT count(*) FROM follow_up_cases fc WHERE fc.case_id = cases.id),
            close_contact_count = (SELECT count(*) FROM follow_up_cases fc WHERE fc.case_id = cases.id AND fc.is_close = 1),
            close_reached_in_24h_count = (SELECT count(*) FROM follow_up_cases fc JOIN follow_ups f ON f.id = fc.follow_up_id
                WHERE fc.case_id = cases.id AND fc.is_close = 1 AND f.reached_at_ms <= cases.opened_at_ms + 86400000),
            first_reached_at_ms = (SELECT min(f.reached_at_ms) FROM follow_up_cases fc
                JOIN follow_ups f ON f.id = fc.follow_up_id WHERE fc.case_id = cases.id)
        """

    /// A follow-up's cases' first and last opening counted from its pairs
    /// (`UPDATE follow_ups SET` this `WHERE …`).
    static let followUpSpan = """
        cases_first_opened_at_ms = (SELECT min(c.opened_at_ms) FROM follow_up_cases fc JOIN cases c ON c.id = fc.case_id
                WHERE fc.follow_up_id = follow_ups.id),
            cases_last_opened_at_ms = (SELECT max(c.opened_at_ms) FROM follow_up_cases fc JOIN cases c ON c.id = fc.case_id
                WHERE fc.follow_up_id = follow_ups.id)
        """

    static let sqliteFactTriggers = """
        CREATE TRIGGER follow_up_cases_facts_added AFTER INSERT ON follow_up_cases
        BEGIN
            UPDATE cases SET contact_count = contact_count + 1, close_contact_count = close_contact_count + NEW.is_close,
                close_reached_in_24h_count = close_reached_in_24h_count + (SELECT count(*) FROM follow_ups f
                    WHERE f.id = NEW.follow_up_id AND NEW.is_close = 1 AND f.reached_at_ms <= cases.opened_at_ms + 86400000),
                first_reached_at_ms = coalesce(
                    min(first_reached_at_ms, (SELECT reached_at_ms FROM follow_ups WHERE id = NEW.follow_up_id)),
                    first_reached_at_ms, (SELECT reached_at_ms FROM follow_ups WHERE id = NEW.follow_up_id))
            WHERE id = NEW.case_id;
            UPDATE follow_ups SET
                cases_first_opened_at_ms = coalesce(
                    min(cases_first_opened_at_ms, (SELECT opened_at_ms FROM cases WHERE id = NEW.case_id)),
                    (SELECT opened_at_ms FROM cases WHERE id = NEW.case_id)),
                cases_last_opened_at_ms = coalesce(
                    max(cases_last_opened_at_ms, (SELECT opened_at_ms FROM cases WHERE id = NEW.case_id)),
                    (SELECT opened_at_ms FROM cases WHERE id = NEW.case_id))
            WHERE id = NEW.follow_up_id;
        END;
        CREATE TRIGGER follow_up_cases_facts_removed AFTER DELETE ON follow_up_cases
        BEGIN
            UPDATE cases SET \(caseFacts) WHERE id = OLD.case_id;
            UPDATE follow_ups SET \(followUpSpan) WHERE id = OLD.follow_up_id;
        END;
        CREATE TRIGGER follow_up_cases_facts_changed AFTER UPDATE ON follow_up_cases
        BEGIN
            UPDATE cases SET \(caseFacts) WHERE id IN (OLD.case_id, NEW.case_id);
            UPDATE follow_ups SET \(followUpSpan) WHERE id IN (OLD.follow_up_id, NEW.follow_up_id);
        END;
        CREATE TRIGGER follow_ups_facts_reached AFTER UPDATE OF reached_at_ms ON follow_ups
            WHEN OLD.reached_at_ms IS NOT NEW.reached_at_ms
        BEGIN
            UPDATE cases SET \(caseFacts) WHERE id IN (SELECT case_id FROM follow_up_cases WHERE follow_up_id = NEW.id);
        END;
        CREATE TRIGGER cases_facts_opened AFTER UPDATE OF opened_at_ms ON cases
            WHEN OLD.opened_at_ms IS NOT NEW.opened_at_ms
        BEGIN
            UPDATE cases SET \(caseFacts) WHERE id = NEW.id;
            UPDATE follow_ups SET \(followUpSpan) WHERE id IN (SELECT follow_up_id FROM follow_up_cases WHERE case_id = NEW.id);
        END;
        """

    static let postgresFactTriggers = """
        CREATE FUNCTION follow_up_cases_facts_added() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            UPDATE cases SET contact_count = contact_count + a.n, close_contact_count = close_contact_count + a.close,
                close_reached_in_24h_count = close_reached_in_24h_count + a.close_in_24h,
                first_reached_at_ms = LEAST(first_reached_at_ms, a.first_reached)
            FROM (SELECT n.case_id, count(*) AS n, sum(n.is_close) AS close,
                    sum(CASE WHEN n.is_close = 1 AND f.reached_at_ms <= oc.opened_at_ms + 86400000 THEN 1 ELSE 0 END)
                        AS close_in_24h,
                    min(f.reached_at_ms) AS first_reached
                FROM added n JOIN follow_ups f ON f.id = n.follow_up_id JOIN cases oc ON oc.id = n.case_id
                GROUP BY n.case_id) a
            WHERE cases.id = a.case_id;
            UPDATE follow_ups SET cases_first_opened_at_ms = LEAST(cases_first_opened_at_ms, a.first_opened),
                cases_last_opened_at_ms = GREATEST(cases_last_opened_at_ms, a.last_opened)
            FROM (SELECT n.follow_up_id, min(c.opened_at_ms) AS first_opened, max(c.opened_at_ms) AS last_opened
                FROM added n JOIN cases c ON c.id = n.case_id GROUP BY n.follow_up_id) a
            WHERE follow_ups.id = a.follow_up_id;
            RETURN NULL;
        END;
        $$;
        CREATE TRIGGER follow_up_cases_facts_added AFTER INSERT ON follow_up_cases
            REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION follow_up_cases_facts_added();
        CREATE FUNCTION follow_up_cases_facts_removed() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            UPDATE cases SET \(caseFacts) WHERE id IN (SELECT case_id FROM removed);
            UPDATE follow_ups SET \(followUpSpan) WHERE id IN (SELECT follow_up_id FROM removed);
            RETURN NULL;
        END;
        $$;
        CREATE TRIGGER follow_up_cases_facts_removed AFTER DELETE ON follow_up_cases
            REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION follow_up_cases_facts_removed();
        CREATE FUNCTION follow_up_cases_facts_changed() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            UPDATE cases SET \(caseFacts)
            WHERE id IN (SELECT case_id FROM before_change UNION SELECT case_id FROM after_change);
            UPDATE follow_ups SET \(followUpSpan)
            WHERE id IN (SELECT follow_up_id FROM before_change UNION SELECT follow_up_id FROM after_change);
            RETURN NULL;
        END;
        $$;
        CREATE TRIGGER follow_up_cases_facts_changed AFTER UPDATE ON follow_up_cases
            REFERENCING OLD TABLE AS before_change NEW TABLE AS after_change
            FOR EACH STATEMENT EXECUTE FUNCTION follow_up_cases_facts_changed();
        CREATE FUNCTION follow_ups_facts_reached() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            UPDATE cases SET \(caseFacts) WHERE id IN (SELECT case_id FROM follow_up_cases WHERE follow_up_id = NEW.id);
            RETURN NULL;
        END;
        $$;
        CREATE TRIGGER follow_ups_facts_reached AFTER UPDATE OF reached_at_ms ON follow_ups
            FOR EACH ROW WHEN (OLD.reached_at_ms IS DISTINCT FROM NEW.reached_at_ms)
            EXECUTE FUNCTION follow_ups_facts_reached();
        CREATE FUNCTION cases_facts_opened() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            UPDATE cases SET \(caseFacts) WHERE id = NEW.id;
            UPDATE follow_ups SET \(followUpSpan)
            WHERE id IN (SELECT follow_up_id FROM follow_up_cases WHERE case_id = NEW.id);
            RETURN NULL;
        END;
        $$;
        CREATE TRIGGER cases_facts_opened AFTER UPDATE OF opened_at_ms ON cases
            FOR EACH ROW WHEN (OLD.opened_at_ms IS DISTINCT FROM NEW.opened_at_ms)
            EXECUTE FUNCTION cases_facts_opened();
        """
}
