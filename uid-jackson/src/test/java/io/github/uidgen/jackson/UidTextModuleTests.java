package io.github.uidgen.jackson;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import io.github.uidgen.UidLayout;
import io.github.uidgen.jackson.UidAsString.Form;
import io.github.uidgen.text.OpaqueUidFormat;
import io.github.uidgen.text.UidFormats;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.exc.InvalidDefinitionException;
import tools.jackson.databind.exc.InvalidFormatException;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * {@code @UidAsString} with a form: written and read in that form, with its prefix; non-decimal forms refuse JSON
 * numbers; forms that need settings are refused, with the reason, where no {@link UidTextModule} brings them.
 */
class UidTextModuleTests {

	private static final long ID = 250_085_535_756_849_152L;

	private final UidLayout layout = UidLayout.defaults();

	private final UidFormats formats = UidFormats.builder(this.layout)
		.fixedWidth(true)
		.opaque(OpaqueUidFormat.builder(this.layout.totalBits())
			.key("", OpaqueUidFormat.decodeKey("q83vEjRWeJCrze8SNFZ4kKvN7xI0VniQq83vEjRWeJA="))
			.build())
		.defaultForm(UidFormats.RADIX62, "", "")
		.build();

	private final JsonMapper mapper = JsonMapper.builder().addModule(new UidTextModule(this.formats)).build();

	record Order(@UidAsString long id, @UidAsString(value = Form.OPAQUE, prefix = "ORD_") long number,
			@UidAsString(Form.READABLE) long issued, @UidAsString(Form.DECIMAL) List<Long> lines) {
	}

	record Invoice(@UidAsString(value = Form.OPAQUE, tweak = "invoices") long number,
			@UidAsString(value = Form.OPAQUE, prefix = "ORD_", tweak = "orders") long order) {
	}

	record Secret(@UidAsString(Form.OPAQUE) long id) {
	}

	record Misplaced(@UidAsString(value = Form.RADIX62, tweak = "orders") long id) {
	}

	@Test
	void anOpaquePropertyWithATweakHasTheTextsOfThatTweak() {
		OpaqueUidFormat opaque = (OpaqueUidFormat) this.formats.form(UidFormats.OPAQUE);
		String json = this.mapper.writeValueAsString(new Invoice(ID, ID));
		String invoice = opaque.tweaked("invoices").format(ID);
		String order = opaque.tweaked("orders").format(ID);
		assertThat(invoice).isNotEqualTo(order).isNotEqualTo(opaque.format(ID));
		assertThat(json).isEqualTo("{\"number\":\"" + invoice + "\",\"order\":\"ORD_" + order + "\"}");
		assertThat(this.mapper.readValue(json, Invoice.class)).isEqualTo(new Invoice(ID, ID));
		// The text of one use is another ID in the other.
		assertThat(this.mapper.readValue("{\"number\":\"" + order + "\",\"order\":\"ORD_" + invoice + "\"}",
				Invoice.class).number()).isNotEqualTo(ID);
	}

	@Test
	void aTweakOnAFormWithoutAKeyIsRefused() {
		assertThatExceptionOfType(InvalidDefinitionException.class)
			.isThrownBy(() -> this.mapper.writeValueAsString(new Misplaced(ID)))
			.withMessageContaining("A tweak is for the opaque form");
	}

	@Test
	void eachPropertyIsWrittenAndReadInItsForm() {
		Order order = new Order(ID, ID, ID, List.of(ID, ID + 1));
		String json = this.mapper.writeValueAsString(order);
		String radix62 = this.formats.form(UidFormats.RADIX62).format(ID);
		String opaque = this.formats.form(UidFormats.OPAQUE).format(ID);
		String readable = this.formats.form(UidFormats.READABLE).format(ID);
		assertThat(radix62).hasSize(11);
		assertThat(json).isEqualTo("{\"id\":\"" + radix62 + "\",\"number\":\"ORD_" + opaque + "\",\"issued\":\""
				+ readable + "\",\"lines\":[\"250085535756849152\",\"250085535756849153\"]}");
		assertThat(this.mapper.readValue(json, Order.class)).isEqualTo(order);
	}

	@Test
	void everyOpaqueTextThatDoesNotDecodeIsRefusedWithTheSameWords() {
		String valid = this.formats.form(UidFormats.OPAQUE).format(ID);
		// A key version the service does not have, a wrong length, a character outside the alphabet, digits beyond
		// the layout's 63 bits, nothing at all.
		List<String> texts = List.of("x" + valid, valid.substring(1), "abc", valid.substring(0, 10) + "!",
				"zzzzzzzzzzz", "AzL8n0Y58m8", "");
		Set<String> answers = new LinkedHashSet<>();
		for (String text : texts) {
			InvalidFormatException refused = catchThrowableOfType(InvalidFormatException.class,
					() -> this.mapper.readValue("{\"id\":\"" + text + "\"}", Secret.class));
			assertThat(refused).as(text).isNotNull();
			assertThat(refused.getOriginalMessage()).as(text)
				.endsWith("not an opaque ID: it is not a valid ID of this service");
			answers.add(refused.getOriginalMessage().replace("\"" + text + "\"", "\"<text>\""));
		}
		assertThat(answers).hasSize(1);
	}

	@Test
	void aNonDecimalFormRefusesNumbersAndTextOfAnotherForm() {
		String radix62 = this.formats.form(UidFormats.RADIX62).format(ID);
		String readable = this.formats.form(UidFormats.READABLE).format(ID);
		assertThatExceptionOfType(InvalidFormatException.class)
			.isThrownBy(() -> this.mapper.readValue("{\"id\":\"" + radix62 + "\",\"number\":" + ID + ",\"issued\":\""
					+ readable + "\",\"lines\":[]}", Order.class))
			.withMessageContaining("read from strings of that form only");
		assertThatExceptionOfType(InvalidFormatException.class)
			.isThrownBy(() -> this.mapper.readValue("{\"id\":\"" + radix62 + "\",\"number\":\"INV_x\",\"issued\":\""
					+ readable + "\",\"lines\":[]}", Order.class))
			.withMessageContaining("does not start with 'ORD_'");
	}

	@Test
	void withoutTheModuleFormsThatNeedSettingsAreRefusedWithTheReason() {
		JsonMapper plain = JsonMapper.builder().build();
		assertThatExceptionOfType(InvalidDefinitionException.class)
			.isThrownBy(() -> plain.writeValueAsString(new Order(ID, ID, ID, List.of())))
			.withMessageContaining("property 'number'")
			.withMessageContaining("The opaque form is not available: it needs a key, and there is no default key");
	}

	record Plain(@UidAsString(Form.RADIX36) long id) {
	}

	@Test
	void radixFormsNeedNoModule() {
		JsonMapper plain = JsonMapper.builder().build();
		assertThat(plain.writeValueAsString(new Plain(ID))).isEqualTo("{\"id\":\"1vqs9pcwbojk\"}".replace(
				"1vqs9pcwbojk", Long.toString(ID, 36)));
		assertThat(plain.readValue("{\"id\":\"" + Long.toString(ID, 36).toUpperCase() + "\"}", Plain.class).id())
			.isEqualTo(ID);
	}

}
