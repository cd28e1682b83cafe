import CivilCalendar
import DeskCore
import DeskText
import Foundation
import TerminalKit

extension AuditScreen {
    /// The filter form: by whom (a name), on whom (the subject: an account, `user 7`, an HIS
    /// client), action (a picker of words: any, or one the log knows) and day (typed or moved
    /// with the date keys; empty for any day). Enter applies from any field.
    public struct FilterForm: Hashable, Sendable {
        public enum Field: Hashable, Sendable, CaseIterable { case person, subject, action, day }

        public enum Edit: Hashable, Sendable {
            case edited
            case cancelled
            case apply(Filter)
        }

        public var person: TextFieldState
        public var subject: TextFieldState
        public var action: AuditAction?
        public var day: DateFieldState
        public var focus: Field = .person
        public var message: String?

        public init(filter: Filter, today: CivilDay) {
            person = ConsoleText.nameField(filter.actor ?? "")
            subject = TextFieldState(filter.subject ?? "", maxLength: 64)
            action = filter.action
            day = DateFieldState(value: filter.day, today: today, maximum: today)
        }

        /// The actions to pick from, "any" (nil) first.
        public static let choices: [AuditAction?] = [nil] + AuditAction.known.map { Optional($0) }

        public static var keyMap: KeyMap<FilterAction> {
            let group = tr("console.frame.group.filter")
            return KeyMap<FilterAction>([
                Binding([.enter], .apply, help: tr("console.audit.key.apply"), group: group, name: "apply"),
                Binding(
                    [.tab, .down], .nextField, help: tr("console.frame.hint.nextField"), group: group,
                    name: "next-field"),
                Binding(
                    [.backTab, .up], .previousField, help: tr("console.frame.key.previousField"), group: group,
                    shownInFooter: false, name: "previous-field"),
                Binding([.escape], .cancel, help: tr("console.frame.hint.cancel"), group: group, name: "back"),
                Binding(
                    [.ctrl("x")], .clearAll, help: tr("console.audit.key.clearAll"), group: group,
                    shownInFooter: false),
            ])
        }

        /// Keys of the action picker.
        public static var actionKeyMap: KeyMap<Int> {
            let group = tr("console.audit.group.action")
            return KeyMap<Int>([
                Binding([.right, .char(" "), .char("l")], 1, help: tr("console.audit.key.nextAction"), group: group),
                Binding([.left, .char("h")], -1, help: tr("console.audit.key.previousAction"), group: group),
            ])
        }

        public mutating func handle(_ key: Key) -> Edit {
            // Enter while a day is typed commits the day first.
            if key == .enter, focus == .day, day.isTyping {
                if case .refused(let reason) = day.commit() {
                    message = reason
                    return .edited
                }
            }
            if key == .escape, focus == .day, day.isTyping {
                _ = day.handle(key)
                return .edited
            }
            if let action = Self.keyMap.action(for: key) {
                switch action {
                case .cancel: return .cancelled
                case .apply: return .apply(filter)
                case .nextField: focus = step(by: 1)
                case .previousField: focus = step(by: -1)
                case .clearAll:
                    person = ConsoleText.nameField()
                    subject = TextFieldState(maxLength: 64)
                    self.action = nil
                    day.value = nil
                    message = nil
                }
                return .edited
            }
            message = nil
            switch focus {
            case .person:
                _ = person.handle(key)
            case .subject:
                _ = subject.handle(key)
            case .action:
                if let offset = Self.actionKeyMap.action(for: key) {
                    let choices = Self.choices
                    let index = choices.firstIndex(of: action) ?? 0
                    action = choices[(index + offset + choices.count) % choices.count]
                }
            case .day:
                if !day.isTyping, [.backspace, .delete].contains(key) {
                    day.value = nil
                    return .edited
                }
                // The calendar pop-up is not drawn here: its keys do nothing.
                if [.char(" "), .function(4)].contains(key) { return .edited }
                if case .refused(let reason) = day.handle(key) { message = reason }
            }
            return .edited
        }

        /// The filter the fields describe now.
        public var filter: Filter {
            let name = person.text.trimmingCharacters(in: .whitespaces).lowercased()
            let target = subject.text.trimmingCharacters(in: .whitespaces).lowercased()
            return Filter(
                actor: name.isEmpty ? nil : name, subject: target.isEmpty ? nil : target, action: action,
                day: day.value)
        }

        private func step(by offset: Int) -> Field {
            let all = Field.allCases
            let index = all.firstIndex(of: focus) ?? 0
            return all[(index + offset + all.count) % all.count]
        }
    }

    public enum FilterAction: Hashable, Sendable { case apply, nextField, previousField, cancel, clearAll }
}
