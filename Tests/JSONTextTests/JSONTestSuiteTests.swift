import Foundation
import JSONText
import Testing

/// The parsing cases of the JSONTestSuite (Tests/Vectors/json, README there): `y_` must be
/// accepted, `n_` refused, and `i_` (left to the parser) must answer without crashing, the
/// answer each gives recorded in ``Cases/implementationDefined``.
enum Cases {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Vectors/json/test_parsing")

    static let all: [String] =
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".json") }
        .sorted()

    static func named(_ prefix: String) -> [String] { all.filter { $0.hasPrefix(prefix) } }

    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: folder.appendingPathComponent(name)))
    }

    static func parse(_ name: String) throws -> Result<JSONValue, JSONSyntaxError> {
        let bytes = try bytes(name)
        do throws(JSONSyntaxError) {
            return .success(try JSONReader.parse(utf8: bytes))
        } catch {
            return .failure(error)
        }
    }

    /// What the reader does with each case the standard leaves open: true accepts it.
    /// It refuses lone or broken surrogates in `\u` escapes, text that is not UTF-8, a leading
    /// byte-order mark, and nesting past 64 levels;
    /// numbers are kept as written, so huge ones are accepted.
    static let implementationDefined: [String: Bool] = [
        "i_number_double_huge_neg_exp.json": true,
        "i_number_huge_exp.json": true,
        "i_number_neg_int_huge_exp.json": true,
        "i_number_pos_double_huge_exp.json": true,
        "i_number_real_neg_overflow.json": true,
        "i_number_real_pos_overflow.json": true,
        "i_number_real_underflow.json": true,
        "i_number_too_big_neg_int.json": true,
        "i_number_too_big_pos_int.json": true,
        "i_number_very_big_negative_int.json": true,
        "i_object_key_lone_2nd_surrogate.json": false,
        "i_string_1st_surrogate_but_2nd_missing.json": false,
        "i_string_1st_valid_surrogate_2nd_invalid.json": false,
        "i_string_UTF-16LE_with_BOM.json": false,
        "i_string_UTF-8_invalid_sequence.json": false,
        "i_string_UTF8_surrogate_U+D800.json": false,
        "i_string_incomplete_surrogate_and_escape_valid.json": false,
        "i_string_incomplete_surrogate_pair.json": false,
        "i_string_incomplete_surrogates_escape_valid.json": false,
        "i_string_invalid_lonely_surrogate.json": false,
        "i_string_invalid_surrogate.json": false,
        "i_string_invalid_utf-8.json": false,
        "i_string_inverted_surrogates_U+1D11E.json": false,
        "i_string_iso_latin_1.json": false,
        "i_string_lone_second_surrogate.json": false,
        "i_string_lone_utf8_continuation_byte.json": false,
        "i_string_not_in_unicode_range.json": false,
        "i_string_overlong_sequence_2_bytes.json": false,
        "i_string_overlong_sequence_6_bytes.json": false,
        "i_string_overlong_sequence_6_bytes_null.json": false,
        "i_string_truncated-utf-8.json": false,
        "i_string_utf16BE_no_BOM.json": false,
        "i_string_utf16LE_no_BOM.json": false,
        "i_structure_500_nested_arrays.json": false,
        "i_structure_UTF-8_BOM_empty_object.json": false,
    ]
}

@Suite("JSONTestSuite parsing cases")
struct JSONTestSuiteTests {
    @Test("the cases are there: 95 to accept, 188 to refuse, 35 left to the parser")
    func casesPresent() {
        #expect(Cases.named("y_").count == 95)
        #expect(Cases.named("n_").count == 188)
        #expect(Cases.named("i_").count == 35)
    }

    @Test("y_: accepted, and what it reads is read again from its own writing", arguments: Cases.named("y_"))
    func accepted(_ name: String) throws {
        switch try Cases.parse(name) {
        case .failure(let error):
            Issue.record("\(name) refused at \(error.offset): \(error.reason)")
        case .success(let value):
            let again = try JSONReader.parse(value.serialized)
            #expect(again == value, "\(name): \(value.serialized)")
        }
    }

    @Test("n_: refused", arguments: Cases.named("n_"))
    func refused(_ name: String) throws {
        if case .success(let value) = try Cases.parse(name) {
            Issue.record("\(name) accepted as \(value.serialized.prefix(200))")
        }
    }

    @Test("i_: answered as recorded", arguments: Cases.named("i_"))
    func implementationDefined(_ name: String) throws {
        let accepted: Bool
        switch try Cases.parse(name) {
        case .success(let value):
            accepted = true
            #expect(try JSONReader.parse(value.serialized) == value, "\(name)")
        case .failure: accepted = false
        }
        #expect(Cases.implementationDefined[name] == accepted, "\(name): \(accepted ? "accepted" : "refused")")
    }
}
