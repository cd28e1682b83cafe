extension English {
    /// The console's messages in English for the frame, the widgets (help, palette, dialogs, footers), sign-in, first admin, lock, the operator's authorise screen and the HIS screen (keys `console.…`; see Catalogue).
    static let consoleFrame: [(String, String)] = []
}
