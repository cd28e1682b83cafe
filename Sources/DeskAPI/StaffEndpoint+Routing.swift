/// How a request path finds its endpoint: the server's routing, derived from the table.
extension StaffEndpoint {
    /// Every path template of the table, once each, in table order.
    public static let templates: [String] = table.reduce(into: []) { templates, endpoint in
        if !templates.contains(endpoint.template) { templates.append(endpoint.template) }
    }

    /// The endpoints at `template`, one per method, in table order (the order of `Allow`).
    public static func endpoints(at template: String) -> [StaffEndpoint] {
        table.filter { $0.template == template }
    }

    /// The template `path` falls under: the path itself when it is one, else the first with
    /// `{name}` whose head and tail it has; nil for a path the staff API does not have.
    public static func template(for path: String) -> String? {
        if templates.contains(path) { return path }
        return templates.first { segment(of: path, in: $0) != nil }
    }

    /// What stands for `{name}` in `path` under `template`: everything between the head and
    /// the tail, as sent (the desk judges it, so a bad name gets the desk's message, after the
    /// session check); nil when `template` has no `{name}` or `path` does not fit it.
    public static func segment(of path: String, in template: String) -> String? {
        guard let marker = template.firstRange(of: "{name}") else { return nil }
        let head = String(template[..<marker.lowerBound])
        let tail = String(template[marker.upperBound...])
        guard path.hasPrefix(head), path.hasSuffix(tail), path.utf8.count >= head.utf8.count + tail.utf8.count else {
            return nil
        }
        return String(path.dropFirst(head.count).dropLast(tail.count))
    }
}
