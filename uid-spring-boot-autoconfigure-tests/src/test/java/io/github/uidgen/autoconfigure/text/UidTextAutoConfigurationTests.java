package io.github.uidgen.autoconfigure.text;

import io.github.uidgen.autoconfigure.UidGeneratorAutoConfiguration;
import io.github.uidgen.jackson.UidTextModule;
import io.github.uidgen.text.OpaqueUidFormat;
import io.github.uidgen.text.UidFormats;
import io.github.uidgen.worker.FixedWorkerIdAssigner;
import io.github.uidgen.worker.WorkerIdAssigner;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link UidTextAutoConfiguration}: the forms from {@code uid.text.*}, the Jackson module, a user's bean
 * winning, and keys refused at start without being repeated.
 */
class UidTextAutoConfigurationTests {

	private static final String KEY = "q83vEjRWeJCrze8SNFZ4kKvN7xI0VniQq83vEjRWeJA=";

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(UidGeneratorAutoConfiguration.class, UidTextAutoConfiguration.class,
				JacksonAutoConfiguration.class))
		.withBean(WorkerIdAssigner.class, () -> new FixedWorkerIdAssigner(3));

	@Test
	void decimalByDefaultWithoutTheOpaqueForm() {
		this.contextRunner.run((context) -> {
			UidFormats formats = context.getBean(UidFormats.class);
			assertThat(formats.defaultForm().name()).isEqualTo("decimal");
			assertThat(formats.names()).containsExactly("decimal", "radix62", "radix36", "readable");
			assertThat(context).hasSingleBean(UidTextModule.class);
		});
	}

	@Test
	void theDefaultFormWithItsPrefixAndTheOpaqueFormWithAKey() {
		this.contextRunner
			.withPropertyValues("uid.text.form=radix36", "uid.text.prefix=ORD_", "uid.text.opaque.key=" + KEY)
			.run((context) -> {
				UidFormats formats = context.getBean(UidFormats.class);
				assertThat(formats.defaultForm().format(36)).isEqualTo("ORD_10");
				assertThat(formats.names()).contains("opaque");
			});
	}

	@Test
	void theApplicationsTweakAppliesWhereAUseNamesNoneAndVersionsWrittenWithoutOneStayReadable() {
		String oldKey = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=";
		OpaqueUidFormat before = OpaqueUidFormat.builder(63).key("b", OpaqueUidFormat.decodeKey(oldKey)).build();
		this.contextRunner
			.withPropertyValues("uid.text.form=opaque", "uid.text.opaque.key=" + KEY,
					"uid.text.opaque.key-version=c", "uid.text.opaque.previous-keys.b=" + oldKey,
					"uid.text.opaque.untweaked-versions=b", "uid.text.opaque.tweak=billing")
			.run((context) -> {
				UidFormats formats = context.getBean(UidFormats.class);
				OpaqueUidFormat opaque = (OpaqueUidFormat) formats.form("opaque");
				assertThat(opaque.tweak()).isEqualTo("billing");
				OpaqueUidFormat untweaked = OpaqueUidFormat.builder(63)
					.key("c", OpaqueUidFormat.decodeKey(KEY))
					.build();
				long id = 250943701143015425L;
				assertThat(formats.defaultForm().format(id)).startsWith("c").isNotEqualTo(untweaked.format(id));
				assertThat(formats.defaultForm().format(id))
					.isEqualTo(untweaked.tweaked("billing").format(id));
				assertThat(formats.defaultForm().parse(before.format(id))).isEqualTo(id);
				assertThat(formats.form("opaque", "orders").parse(before.format(id))).isEqualTo(id);
			});
	}

	@Test
	void aVersionWrittenWithoutTweakThatIsNoPreviousKeysIsRefused() {
		this.contextRunner
			.withPropertyValues("uid.text.opaque.key=" + KEY, "uid.text.opaque.key-version=c",
					"uid.text.opaque.untweaked-versions=c")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(UidTextPropertyException.class)
				.hasMessageContaining("uid.text.opaque.untweaked-versions")
				.hasMessageContaining("current key's version 'c'"));
	}

	@Test
	void aUsersFormsWin() {
		UidFormats own = UidFormats.standalone();
		this.contextRunner.withBean(UidFormats.class, () -> own)
			.run((context) -> assertThat(context.getBean(UidFormats.class)).isSameAs(own));
	}

	@Test
	void theOpaqueFormWithoutAKeyIsRefusedNamingTheKeyProperty() {
		this.contextRunner.withPropertyValues("uid.text.form=opaque")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(UidTextPropertyException.class)
				.hasMessageContaining("uid.text.opaque.key")
				.hasMessageContaining("no default key"));
	}

	@Test
	void aShortKeyIsRefusedWithoutBeingRepeated() {
		this.contextRunner.withPropertyValues("uid.text.opaque.key=c2VjcmV0c2VjcmV0")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(UidTextPropertyException.class)
				.hasMessageContaining("uid.text.opaque.key")
				.hasMessageContaining("12 bytes")
				.hasMessageNotContaining("c2VjcmV0c2VjcmV0"));
	}

	@Test
	void withoutUidJacksonThereIsNoModule() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(UidTextModule.class))
			.run((context) -> {
				assertThat(context).hasSingleBean(UidFormats.class);
				assertThat(context).doesNotHaveBean(UidTextModule.class);
			});
	}

}
