extension English {
    /// The cli messages in English (keys: see Catalogue).
    static let cli: [(String, String)] = []
}
