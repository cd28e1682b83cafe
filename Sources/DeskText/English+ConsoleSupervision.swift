extension English {
    /// The console's messages in English for the supervisor's and admin's screens: monitor, dashboard, staff, audit (keys `console.…`; see Catalogue).
    static let consoleSupervision: [(String, String)] = []
}
