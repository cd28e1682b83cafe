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
            throw UsageError(
                "give the number either as PHONE or on stdin with --phone-stdin, not both", command: command)
        }
        guard phoneFromStdin || arguments.positionals.count == 1 else {
            throw UsageError(
                arguments.positionals.isEmpty
                    ? "give the patient's phone number: tracedesk trace PHONE --purpose TEXT (or --phone-stdin)"
                    : "give one phone number only (quote it if it has spaces)",
                command: command)
        }
        guard let typedPurpose = arguments.values["purpose"] else {
            throw UsageError(
                "give the purpose or case reference: --purpose \"case 2026-1234\" (every lookup is audited with it)",
                command: command)
        }
        if arguments.has("csv"), arguments.has("json") {
            throw UsageError("give --csv or --json, not both", command: command)
        }
        // The number (read first: with --password-stdin the password is the next line) and the
        // purpose are checked before a password is asked for.
        let phone: String
        if phoneFromStdin {
            switch Terminal.readLine(fd: STDIN_FILENO, limit: 256) {
            case .line(let line): phone = line
            case .end:
                printError("--phone-stdin: stdin is empty: pipe the patient's number in, on the first line")
                return .refused
            case .tooLong:
                printError("--phone-stdin: the first line is too long for a phone number: pipe the number alone")
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
            "Patient \(patient.phone.spaced) · user \(patient.userID) · registered since \(StaffCommand.localTime(patient.registeredAt))"
        )
        say("Purpose: \(lookup.purpose)")
        if patient.daysUploaded == 0 {
            say("Uploads: none yet. Ask the patient to share their contacts in the app, then look them up again.")
            return
        }
        say(TraceText.uploads(patient))
        say(TraceText.counts(lookup) + " (* = at least \(lookup.closeContactMinutes) min on one day)")
        guard !lookup.contacts.isEmpty else {
            say("No other registered phone was seen in the uploaded files.")
            return
        }
        say("")
        let header = ["", "PHONE", "MINUTES", "MOST/DAY", "DAYS", "SIGHTINGS", "FIRST SEEN", "LAST SEEN", "OUTCOME"]
        var rows = [header]
        for contact in lookup.contacts {
            let s = contact.summary
            rows.append([
                s.isCloseContact ? "*" : "", s.phone.spaced, String(s.minutes), String(s.mostMinutesOnOneDay),
                String(s.days), String(s.sightings), s.firstSeen.map(StaffCommand.localTime) ?? "no time",
                s.lastSeen.map(StaffCommand.localTime) ?? "no time", contact.currentOutcome.label,
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
        say("Sightings (\(sightings.count), oldest first):")
        for sighting in sightings {
            let when =
                sighting.time == 0
                ? "no time            " : StaffCommand.localTime(Date(timeIntervalSince1970: Double(sighting.time)))
            let who = sighting.contactUserID.flatMap { phones[$0]?.spaced } ?? "unresolved"
            say("\(when)  file \(sighting.fileDay.iso)  \(StaffWire.hex(sighting.beacon))  \(who)")
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
