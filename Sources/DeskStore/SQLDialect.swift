/// The two SQL engines the store runs on: what differs in their SQL is decided by this value.
package enum SQLDialect: Sendable { case sqlite, postgres }
