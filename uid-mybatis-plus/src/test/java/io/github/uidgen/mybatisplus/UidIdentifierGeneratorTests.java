package io.github.uidgen.mybatisplus;

import io.github.uidgen.snowflake.DefaultUidGenerator;
import io.github.uidgen.mybatisplus.app.Invoice;
import io.github.uidgen.mybatisplus.app.Order;
import io.github.uidgen.worker.FixedWorkerIdAssigner;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Which keys the generator fills and with what, on a real generator; inserting through MyBatis-Plus is tested in
 * {@link MybatisPlusInsertTests}.
 */
class UidIdentifierGeneratorTests {

	private final DefaultUidGenerator uids = DefaultUidGenerator.builder()
		.workerIdAssigner(new FixedWorkerIdAssigner(9))
		.build();

	private final UidIdentifierGenerator generator = new UidIdentifierGenerator(this.uids);

	@AfterEach
	void close() {
		this.uids.close();
	}

	@Test
	void aKeyThatIsNullZeroOrEmptyIsAssignedAndASetKeyIsNot() {
		assertThat(this.generator.assignId(null)).isTrue();
		assertThat(this.generator.assignId(0L)).isTrue();
		assertThat(this.generator.assignId(0)).isTrue();
		assertThat(this.generator.assignId("")).isTrue();
		assertThat(this.generator.assignId(42L)).isFalse();
		assertThat(this.generator.assignId("42")).isFalse();
	}

	@Test
	void eachEntityGetsTheNextIdOfTheApplicationsGenerator() {
		long first = this.generator.nextId(new Order());
		long second = this.generator.nextId(new Order());
		assertThat(second).isGreaterThan(first);
		assertThat(this.uids.decode(first).workerId()).isEqualTo(9);
	}

	@Test
	void aSegmentKeyWithoutTheSegmentGeneratorIsRefusedWithTheFix() {
		assertThatIllegalStateException().isThrownBy(() -> this.generator.nextId(new Invoice()))
			.withMessageContaining("@UidSegmentKey(\"invoice\") on " + Invoice.class.getName())
			.withMessageContaining("set uid.generator=segment");
	}

}
