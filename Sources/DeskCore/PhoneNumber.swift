import CivilCalendar
import DeskText

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A phone number in E.164 form: `+` and 8 to 15 digits. Personal data: never put one in a log
/// line or an error message.
public struct PhoneNumber: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// "+393331234567".
    public let e164: String

    /// Exactly E.164, as phones send it: `+` then 8–15 digits, the first not 0.
    public init?(e164 text: String) {
        guard PhoneNumber.problem(ofE164: text) == nil else { return nil }
        e164 = text
    }

    /// Normalises what staff type: spaces, dashes, dots and parentheses are removed, a leading
    /// `00` becomes `+`, and a number without a country code gets `defaultCountryCode`.
    public static func normalize(_ typed: String, defaultCountryCode: String) throws(PhoneNumberError) -> PhoneNumber {
        var text = ""
        for character in typed where !" \t-.()/\u{00A0}".contains(character) {
            text.append(character)
        }
        if text.isEmpty { throw .empty }
        if text.hasPrefix("00") {
            text = "+" + text.dropFirst(2)
        } else if !text.hasPrefix("+") {
            guard text.allSatisfy(\.isASCIIDigit) else { throw .notADigit }
            // A national number: the trunk prefix 0 is kept (Italian numbers keep it).
            text = defaultCountryCode + text
        }
        if let problem = PhoneNumber.problem(ofE164: text) { throw problem }
        return PhoneNumber(checked: text)
    }

    private init(checked: String) { e164 = checked }

    /// What is wrong with `text` as E.164; nil when it is right.
    static func problem(ofE164 text: String) -> PhoneNumberError? {
        guard text.hasPrefix("+") else { return .noPlus }
        let digits = text.dropFirst()
        if digits.contains("+") { return .misplacedPlus }
        guard digits.allSatisfy(\.isASCIIDigit) else { return .notADigit }
        if digits.count < 8 { return .tooShort(digits: digits.count) }
        if digits.count > 15 { return .tooLong(digits: digits.count) }
        if digits.first == "0" { return .countryCodeStartsWithZero }
        return nil
    }

    /// "+39 333 123 4567"-like grouping for reading aloud: the country part, then threes, the
    /// last group four digits. Only for screens; the stored form is ``e164``.
    public var spaced: String {
        let digits = Array(e164.dropFirst())
        let countryLength = PhoneNumber.countryCodeLength(digits)
        var groups = ["+" + String(digits[..<countryLength])]
        var rest = Array(digits[countryLength...])
        while rest.count > 4 {
            let take = rest.count == 5 ? 2 : 3
            groups.append(String(rest[..<take]))
            rest.removeFirst(take)
        }
        if !rest.isEmpty { groups.append(String(rest)) }
        return groups.joined(separator: " ")
    }

    /// A display that does not reveal the number: "+39 … 67" (for places a full number is not needed).
    public var masked: String {
        let digits = Array(e164.dropFirst())
        let countryLength = PhoneNumber.countryCodeLength(digits)
        return "+" + String(digits[..<countryLength]) + " … " + String(digits.suffix(2))
    }

    /// ITU country codes are 1–3 digits; the common ones are told apart by their first digits.
    static func countryCodeLength(_ digits: [Character]) -> Int {
        guard let first = digits.first else { return 0 }
        if first == "1" || first == "7" { return 1 }
        let two = String(digits.prefix(2))
        let twoDigitCodes: Set<String> = [
            "20", "27", "30", "31", "32", "33", "34", "36", "39", "40", "41", "43", "44", "45", "46", "47", "48",
            "49", "51", "52", "53", "54", "55", "56", "57", "58", "60", "61", "62", "63", "64", "65", "66", "81",
            "82", "84", "86", "90", "91", "92", "93", "94", "95", "98",
        ]
        return twoDigitCodes.contains(two) ? 2 : min(3, digits.count)
    }

    public var description: String { masked }

    public static func < (lhs: PhoneNumber, rhs: PhoneNumber) -> Bool { lhs.e164 < rhs.e164 }
}

/// Why typed text is not a phone number; the message says what to type instead and never
/// repeats the number.
public enum PhoneNumberError: Error, Hashable, Sendable {
    case empty
    case noPlus
    case misplacedPlus
    case notADigit
    case tooShort(digits: Int)
    case tooLong(digits: Int)
    case countryCodeStartsWithZero

    /// In the current language.
    public var message: String {
        let example = tr("console.trace.phone.example")
        switch self {
        case .empty: return tr("console.trace.phone.empty", ["example": example])
        case .noPlus: return tr("console.trace.phone.noPlus", ["example": example])
        case .misplacedPlus: return tr("console.trace.phone.misplacedPlus", ["example": example])
        case .notADigit: return tr("console.trace.phone.notADigit", ["example": example])
        case .tooShort(let digits): return tr("console.trace.phone.tooShort", ["digits": String(digits)])
        case .tooLong(let digits): return tr("console.trace.phone.tooLong", ["digits": String(digits)])
        case .countryCodeStartsWithZero: return tr("console.trace.phone.countryCodeZero")
        }
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
