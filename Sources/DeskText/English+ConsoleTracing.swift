extension English {
    /// The console's messages in English for the tracer's screens: trace, queue, person view, case view, exports (keys `console.…`; see Catalogue).
    static let consoleTracing: [(String, String)] = []
}
