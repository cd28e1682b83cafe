import CivilCalendar
import DeskAPI
import DeskContract
import DeskCore
import Foundation
import JSONText

/// `tracedesk trace PHONE --purpose TEXT`: the contact tracer's lookup without the full screen.
///
/// The default output is a readable summary and table; `--csv` writes the same columns as the
/// screen's export, `--json` the staff API's answer. Both are exports and are recorded in the
/// audit log before anything is printed (`contacts_csv`, `sightings_csv`, `json`). Privacy: the
/// output holds phone numbers; errors never do.
enum TraceCommand {
    static var help: String { HelpText.command(CommandTable.command("trace")) }

    static func run(_ words: [String]) async throws(UsageError) -> ExitStatus {
        let command = "trace"
        let arguments = try Arguments(words, CommandTable.command("trace"), command: command)
        if arguments.has("help") || words.first == "help" {
            print(help)
            return .success
        }
        let phoneFromStdin = arguments.has("phone-stdin")
        if phoneFromStdin, !arguments.positionals.isEmpty {
            throw UsageError(tr("cli.trace.phoneBoth"), command: command)
        }
        guard phoneFromStdin || arguments.positionals.count == 1 else {
            throw UsageError(
                arguments.positionals.isEmpty
                    ? tr("cli.trace.givePhone")
                    : tr("cli.trace.onePhone"),
                command: command)
        }
        guard let typedPurpose = arguments.values["purpose"] else {
            throw UsageError(
                tr("cli.trace.givePurpose"),
                command: command)
        }
        if arguments.has("csv"), arguments.has("json") {
            throw UsageError(tr("cli.common.csvOrJson"), command: command)
        }
        // The number (read first: with --password-stdin the password is the next line) and the
        // purpose are checked before a password is asked for.
        let phone: String
        if phoneFromStdin {
            switch Terminal.readLine(fd: STDIN_FILENO, limit: 256) {
            case .line(let line): phone = line
            case .end:
                printError(tr("cli.trace.stdinEmpty"))
                return .refused
            case .tooLong:
                printError(tr("cli.trace.stdinLong"))
                return .refused
            }
        } else {
            phone = arguments.positionals[0]
        }
        let countryCode = try StoreLocation.apricotSettings(command: command).defaultCountryCode
        do throws(PhoneNumberError) {
            _ = try PhoneNumber.normalize(phone, defaultCountryCode: countryCode)
        } catch {
            printError(error.message)
            return .refused
        }
        let purpose: String
        switch TracePurpose.check(typedPurpose) {
        case .success(let checked): purpose = checked
        case .failure(let problem):
            printError(problem.message)
            return .refused
        }
        let options = Globals.person.merged(with: arguments)
        let format: Format = arguments.has("csv") ? .csv : arguments.has("json") ? .json : .table
        let withSightings = arguments.has("sightings")
        return try await Person.acting(arguments, options, command: command) { desk, session throws(ServiceError) in
            let lookup = try await desk.traceLookup(session, phone: phone, purpose: purpose)
            var sightings: [Sighting] = []
            if withSightings {
                sightings = try await allSightings(desk, session, lookup: lookup, purpose: purpose)
            }
            switch format {
            case .table:
                printTable(lookup)
                if withSightings { printSightings(sightings, lookup: lookup) }
            case .csv:
                let kind = withSightings ? "sightings_csv" : "contacts_csv"
                let rows = withSightings ? sightings.count : lookup.contacts.count
                try await desk.recordTraceExport(
                    session, patientUserID: lookup.patient.userID, purpose: purpose, kind: kind, rows: rows)
                FileHandle.standardOutput.write(
                    Data(
                        (withSightings ? sightingsCSV(sightings, lookup: lookup) : TraceCSV.contacts(lookup.contacts))
                            .utf8))
            case .json:
                // Rows as for CSV: the sightings when they are what is exported.
                try await desk.recordTraceExport(
                    session, patientUserID: lookup.patient.userID, purpose: purpose, kind: "json",
                    rows: withSightings ? sightings.count : lookup.contacts.count)
                var value = StaffWire.traceLookup(lookup)
                if withSightings, case .object(var members) = value {
                    let page = StaffWire.sightingsPage(sightings, total: sightings.count, nextOffset: nil)
                    if case .object(let pageMembers) = page,
                        let list = pageMembers.first(where: { $0.key == "sightings" })
                    {
                        members.append(list)
                    }
                    value = .object(members)
                }
                print(value.serialized)
            }
            return .success
        }
    }

    enum Format { case table, csv, json }

    /// Every sighting of the patient's kept files, a page of 50 000 at a time.
    static func allSightings(
        _ desk: any DeskService, _ session: StaffSession, lookup: TraceLookup, purpose: String
    ) async throws(ServiceError) -> [Sighting] {
        var sightings: [Sighting] = []
        var offset: Int? = 0
        while let start = offset {
            let page = try await desk.traceSightings(
                session, patientUserID: lookup.patient.userID, contactUserID: nil, purpose: purpose, offset: start,
                limit: TraceSightingsPage.maximumLimit)
            sightings += page.sightings
            offset = page.sightings.isEmpty ? nil : page.nextOffset
        }
        return sightings
    }

    static func printTable(_ lookup: TraceLookup) {
        let patient = lookup.patient
        say(
            tr(
                "cli.trace.patient",
                [
                    "phone": patient.phone.spaced, "user": String(patient.userID),
                    "since": StaffCommand.localTime(patient.registeredAt),
                ])
        )
        say(tr("cli.trace.purpose", ["purpose": lookup.purpose]))
        if patient.daysUploaded == 0 {
            say(tr("cli.trace.noUploads"))
            return
        }
        say(TraceText.uploads(patient))
        say(TraceText.counts(lookup) + tr("cli.trace.closeMark", ["minutes": String(lookup.closeContactMinutes)]))
        guard !lookup.contacts.isEmpty else {
            say(tr("cli.trace.noContacts"))
            return
        }
        say("")
        let header =
            [""]
            + ["phone", "minutes", "mostPerDay", "days", "sightings", "firstSeen", "lastSeen", "outcome"].map {
                tr("cli.trace.column.\($0)")
            }
        var rows = [header]
        for contact in lookup.contacts {
            let s = contact.summary
            rows.append([
                s.isCloseContact ? "*" : "", s.phone.spaced, String(s.minutes), String(s.mostMinutesOnOneDay),
                String(s.days), String(s.sightings), s.firstSeen.map(StaffCommand.localTime) ?? tr("cli.trace.noTime"),
                s.lastSeen.map(StaffCommand.localTime) ?? tr("cli.trace.noTime"),
                tr("console.trace.outcome.\(contact.currentOutcome.rawValue)"),
            ])
        }
        let widths = header.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        for row in rows {
            say(
                row.enumerated().map { index, cell in
                    index == row.count - 1 ? cell : cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
                }.joined(separator: "  "))
        }
    }

    static func printSightings(_ sightings: [Sighting], lookup: TraceLookup) {
        let phones = Dictionary(lookup.contacts.map { ($0.summary.userID, $0.summary.phone) }) { first, _ in first }
        say("")
        say(tr("cli.trace.sightingsHeading", ["count": String(sightings.count)]))
        for sighting in sightings {
            let when =
                sighting.time == 0
                ? tr("cli.trace.noTimeColumn")
                : StaffCommand.localTime(Date(timeIntervalSince1970: Double(sighting.time)))
            let who = sighting.contactUserID.flatMap { phones[$0]?.spaced } ?? tr("cli.trace.unresolved")
            say(
                tr(
                    "cli.trace.sighting",
                    ["when": when, "day": sighting.fileDay.iso, "beacon": StaffWire.hex(sighting.beacon), "who": who]))
        }
    }

    static func sightingsCSV(_ sightings: [Sighting], lookup: TraceLookup) -> String {
        let phones = Dictionary(lookup.contacts.map { ($0.summary.userID, $0.summary.phone) }) { first, _ in first }
        var text = "time,file_day,beacon,contact_user_id,contact_phone\r\n"
        for sighting in sightings {
            let fields = [
                sighting.time == 0 ? "" : StaffWire.time(Date(timeIntervalSince1970: Double(sighting.time))),
                sighting.fileDay.iso, StaffWire.hex(sighting.beacon), sighting.contactUserID.map(String.init) ?? "",
                sighting.contactUserID.flatMap { phones[$0]?.e164 } ?? "",
            ]
            text += fields.map(TraceCSV.field).joined(separator: ",") + "\r\n"
        }
        return text
    }
}
