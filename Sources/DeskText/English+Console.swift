extension English {
    /// The console messages in English (keys: see Catalogue).
    static let console: [(String, String)] = []
}
