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

    /// The template `path` falls under: the path itself when it is one, else, of those with a
    /// `{…}` whose head and tail it has, the one whose head and tail are longest (so
    /// `/cases/7/close` is `/cases/{id}/close`, not `/cases/{id}` with `7/close` for its id);
    /// nil for a path the staff API does not have.
    public static func template(for path: String) -> String? {
        if templates.contains(path) { return path }
        var best: (template: String, fixed: Int)?
        for template in templates where segment(of: path, in: template) != nil {
            let fixed = template.utf8.count - (placeholder(in: template).map { template[$0].utf8.count } ?? 0)
            if best.map({ fixed > $0.fixed }) ?? true { best = (template, fixed) }
        }
        return best?.template
    }

    /// What stands for the `{…}` in `path` under `template`: everything between the head and
    /// the tail, as sent (the desk judges a name, so a bad one gets the desk's message, after
    /// the session check; an id is read by its request, ``StaffRequests/pathID(_:what:)``); nil
    /// when `template` has no `{…}` or `path` does not fit it.
    public static func segment(of path: String, in template: String) -> String? {
        guard let marker = placeholder(in: template) else { return nil }
        let head = String(template[..<marker.lowerBound])
        let tail = String(template[marker.upperBound...])
        guard path.hasPrefix(head), path.hasSuffix(tail), path.utf8.count >= head.utf8.count + tail.utf8.count else {
            return nil
        }
        return String(path.dropFirst(head.count).dropLast(tail.count))
    }
}
