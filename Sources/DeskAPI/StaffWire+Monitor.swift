import CivilCalendar
import DeskContract
import DeskCore
import JSONText

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The monitor's JSON: the event feed, the traffic share and the watch of a code
/// (docs/staff-api.yaml). Like the rest of ``StaffWire``, it never holds a code or its hash:
/// a code travels as its 6-hex tag only.
extension StaffWire {
    /// The longest long poll a request may ask for, in seconds: the contract's limit
    /// (``ServiceChecks/maximumWaitSeconds``), named here too for the client's transport.
    public static var maximumWaitSeconds: Int64 { ServiceChecks.maximumWaitSeconds }

    // MARK: Writing

    /// `GET /staff/v1/events`: `{"events": [...], "cursor": n}`. An event's stored detail (a
    /// JSON object) is embedded as an object; one that does not parse travels as a string.
    public static func eventPage(_ page: EventPage) -> JSONValue {
        object([
            ("events", .array(page.events.map(event))),
            ("cursor", number(page.cursor)),
        ])
    }

    static func event(_ event: MonitorEvent) -> JSONValue {
        let detail: JSONValue
        if let parsed = try? JSONReader.parse(event.detail), case .object = parsed {
            detail = parsed
        } else {
            detail = .string(event.detail)
        }
        return object([
            ("id", number(event.id)), ("at", .string(time(event.at))), ("kind", .string(event.kind)),
            ("actor", event.actor.map { .string($0) } ?? .null),
            ("code_tag", event.codeTag.map { .string($0) } ?? .null), ("detail", detail),
        ])
    }

    /// `GET /staff/v1/traffic`.
    public static func traffic(_ share: TrafficShare) -> JSONValue {
        object([
            ("since", .string(time(share.since))), ("real_requests", number(share.realRequests)),
            ("dummy_requests", number(share.dummyRequests)),
        ])
    }

    /// `POST /staff/v1/watch`.
    public static func watch(_ watch: CodeWatch) -> JSONValue {
        var upload: JSONValue = .null
        if let found = watch.upload {
            upload = object([
                ("received_at", .string(time(found.receivedAt))), ("keys_accepted", number(found.keysAccepted)),
                ("keys_dropped", number(found.keysDropped)),
                (
                    "dropped_reasons",
                    object(found.droppedReasons.sorted { $0.key < $1.key }.map { ($0.key, number($0.value)) })
                ),
                ("province", found.province.map { .string($0) } ?? .null),
                ("clock_skew_seconds", number(found.clockSkewSeconds)),
                ("published_in_chunks", .array(found.publishedInChunks.map { number($0) })),
                ("keys_waiting", number(found.keysWaiting)), ("embargo_ends_at", optionalTime(found.embargoEndsAt)),
            ])
        }
        return object([
            ("code_tag", .string(watch.codeTag)), ("authorized_by", .string(watch.authorizedBy)),
            ("authorized_at", .string(time(watch.authorizedAt))), ("expires_at", .string(time(watch.expiresAt))),
            ("symptoms_started_on", .string(watch.symptomsStartedOn.iso)), ("checks", number(watch.checks)),
            ("first_checked_at", optionalTime(watch.firstCheckedAt)),
            ("last_checked_at", optionalTime(watch.lastCheckedAt)), ("refused_uploads", number(watch.refusedUploads)),
            ("last_refusal", watch.lastRefusal.map { .string($0) } ?? .null), ("upload", upload),
            ("next_publishing_run", optionalTime(watch.nextPublishingRun)), ("as_of", number(watch.asOf)),
        ])
    }

    /// The body of `POST /staff/v1/watch`: `{"code": "..."}` or `{"event": n}`.
    public static func watchRequest(_ target: WatchTarget) -> JSONValue {
        switch target {
        case .code(let code): return object([("code", .string(code))])
        case .event(let id): return object([("event", number(id))])
        }
    }

    /// The query of `GET /staff/v1/events`.
    public static func eventsQueryItems(after: Int64, limit: Int, waitSeconds: Int64) -> [(name: String, value: String)]
    {
        [("after", String(after)), ("limit", String(limit)), ("wait", String(waitSeconds))]
    }

    // MARK: Reading

    public static func readEventPage(_ bytes: [UInt8]) throws(FieldProblem) -> EventPage {
        let reader = try document(bytes)
        var events: [MonitorEvent] = []
        for (i, item) in try reader.array("events")!.enumerated() {
            let entry = try ObjectReader(item, path: "events[\(i)]")
            let detail: String
            switch try entry.required("detail") {
            case .object(let members): detail = JSONValue.object(members).serialized
            case .string(let text): detail = text
            default: throw FieldProblem("events[\(i)].detail must be an object")
            }
            events.append(
                MonitorEvent(
                    id: try int(entry, "id"), at: try requiredTime(entry, "at"), kind: try entry.string("kind")!,
                    actor: try entry.string("actor", required: false, allowNull: true),
                    codeTag: try entry.string("code_tag", required: false, allowNull: true), detail: detail))
        }
        let cursor = try int(reader, "cursor")
        return EventPage(events: events, cursor: cursor)
    }

    public static func readTraffic(_ bytes: [UInt8]) throws(FieldProblem) -> TrafficShare {
        let reader = try document(bytes)
        return TrafficShare(
            since: try requiredTime(reader, "since"),
            realRequests: try reader.integer("real_requests", in: 0...Int64.max)!,
            dummyRequests: try reader.integer("dummy_requests", in: 0...Int64.max)!)
    }

    public static func readWatch(_ bytes: [UInt8]) throws(FieldProblem) -> CodeWatch {
        let reader = try document(bytes)
        guard let day = CivilDay(iso: try reader.string("symptoms_started_on")!) else {
            throw FieldProblem("symptoms_started_on is not a day such as 2026-11-29")
        }
        var upload: WatchedUpload?
        if let value = try reader.optional("upload", allowNull: true) {
            let item = try ObjectReader(value, path: "upload")
            let reasonsReader = try nested(item, "dropped_reasons")
            var reasons: [String: Int] = [:]
            if case .object(let members) = try item.required("dropped_reasons") {
                for member in members {
                    reasons[member.key] = Int(try reasonsReader.integer(member.key, in: 0...Int64(Int32.max))!)
                }
            }
            var chunks: [Int64] = []
            for (i, chunk) in try item.array("published_in_chunks")!.enumerated() {
                chunks.append(try Fields.integer(chunk, name: "upload.published_in_chunks[\(i)]", in: 1...Int64.max))
            }
            upload = WatchedUpload(
                receivedAt: try requiredTime(item, "received_at"),
                keysAccepted: Int(try item.integer("keys_accepted", in: 0...Int64(Int32.max))!),
                keysDropped: Int(try item.integer("keys_dropped", in: 0...Int64(Int32.max))!), droppedReasons: reasons,
                province: try item.string("province", required: false, allowNull: true),
                clockSkewSeconds: try int(item, "clock_skew_seconds"), publishedInChunks: chunks,
                keysWaiting: Int(try item.integer("keys_waiting", in: 0...Int64(Int32.max))!),
                embargoEndsAt: try optionalTime(item, "embargo_ends_at"))
        }
        return CodeWatch(
            codeTag: try reader.string("code_tag")!, authorizedBy: try reader.string("authorized_by")!,
            authorizedAt: try requiredTime(reader, "authorized_at"), expiresAt: try requiredTime(reader, "expires_at"),
            symptomsStartedOn: day, checks: Int(try reader.integer("checks", in: 0...Int64(Int32.max))!),
            firstCheckedAt: try optionalTime(reader, "first_checked_at"),
            lastCheckedAt: try optionalTime(reader, "last_checked_at"),
            refusedUploads: Int(try reader.integer("refused_uploads", in: 0...Int64(Int32.max))!),
            lastRefusal: try reader.string("last_refusal", required: false, allowNull: true), upload: upload,
            nextPublishingRun: try optionalTime(reader, "next_publishing_run"), asOf: try int(reader, "as_of"))
    }
}

extension StaffRequests {
    /// `?after=&limit=&wait=` of `GET /staff/v1/events`, each at most once.
    public struct EventsQuery: Hashable, Sendable {
        public var after: Int64 = 0
        public var limit = 100
        public var waitSeconds: Int64 = 0
        /// `newest=N`: the newest N events instead of those after a cursor.
        public var newest: Int?
    }

    public static func eventsQuery(_ request: HTTPRequest) -> Result<EventsQuery, APIError> {
        let allowed: Set<String> = ["after", "limit", "wait", "newest"]
        var query = EventsQuery()
        do throws(FieldProblem) {
            if let extra = request.query.first(where: { !allowed.contains($0.name) }) {
                throw FieldProblem(
                    "\(Fields.safeName(extra.name)) is not a parameter of this request (allowed: after, limit, wait, newest)"
                )
            }
            func number(_ name: String, _ range: ClosedRange<Int64>, _ meaning: String) throws(FieldProblem) -> Int64? {
                let values = request.queryValues(name)
                if values.count > 1 { throw FieldProblem("\(name) may be given once") }
                guard let text = values.first, !text.isEmpty else { return nil }
                guard let value = Fields.parseInteger(text), range.contains(value) else {
                    throw FieldProblem("\(name) must be \(meaning)")
                }
                return value
            }
            if let after = try number("after", 0...Int64.max, "an event id, a whole number from 0") {
                query.after = after
            }
            let pageSizes = 1...Int64(ServiceChecks.maximumPageSize)
            let sizeMeaning = "a whole number from 1 to \(ServiceChecks.maximumPageSize)"
            if let limit = try number("limit", pageSizes, sizeMeaning) { query.limit = Int(limit) }
            if let wait = try number(
                "wait", 0...ServiceChecks.maximumWaitSeconds,
                "whole seconds from 0 to \(ServiceChecks.maximumWaitSeconds)")
            {
                query.waitSeconds = wait
            }
            if let newest = try number("newest", pageSizes, sizeMeaning) {
                guard request.queryValues("after").isEmpty, request.queryValues("wait").isEmpty,
                    request.queryValues("limit").isEmpty
                else { throw FieldProblem("newest asks for the newest events: give it without after, limit or wait") }
                query.newest = Int(newest)
            }
            return .success(query)
        } catch {
            return .failure(.invalidRequest(error.text))
        }
    }

    /// `?since=` of `GET /staff/v1/traffic` (required).
    public static func trafficSince(_ request: HTTPRequest) -> Result<Date, APIError> {
        if let extra = request.query.first(where: { $0.name != "since" }) {
            return .failure(
                .invalidRequest("\(Fields.safeName(extra.name)) is not a parameter of this request (allowed: since)"))
        }
        let values = request.queryValues("since")
        guard values.count == 1, let date = StaffWire.parseTime(values[0]) else {
            return .failure(.invalidRequest("since must be given once, a UTC time written 2026-11-29T10:00:00.000Z"))
        }
        return .success(date)
    }

    /// `{"code": "..."}` or `{"event": n}`: what `POST /staff/v1/watch` watches.
    public static func watchTarget(_ request: HTTPRequest) -> Result<WatchTarget, APIError> {
        read(request, allowed: ["code", "event"]) { fields throws(FieldProblem) in
            let code = try fields.string("code", required: false)
            let event = try fields.integer("event", in: 1...Int64.max, required: false)
            switch (code, event) {
            case (let code?, nil): return .code(code)
            case (nil, let event?): return .event(event)
            default: throw FieldProblem("give either code or event, not both and not neither")
            }
        }
    }
}
