package io.github.uidgen.persistence.jdbc;

import io.github.uidgen.snowflake.DefaultUidGenerator;
import io.github.uidgen.persistence.UidId;
import io.github.uidgen.worker.FixedWorkerIdAssigner;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.data.annotation.Id;
import org.springframework.data.jdbc.core.mapping.JdbcMappingContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Which aggregates the callback gives an ID, and how it sets it, on Spring Data JDBC's own mapping context. Saving
 * through repositories on MariaDB and PostgreSQL is tested with the Spring Boot auto-configuration.
 */
class UidIdBeforeConvertCallbackTests {

	private final DefaultUidGenerator generator = DefaultUidGenerator.builder()
		.workerIdAssigner(new FixedWorkerIdAssigner(3))
		.build();

	private final UidIdBeforeConvertCallback callback = new UidIdBeforeConvertCallback(JdbcMappingContext::new,
			() -> this.generator);

	@AfterEach
	void close() {
		this.generator.close();
	}

	record Invoice(@Id @UidId Long id, String customer) {
	}

	static class Ticket {

		@Id
		@UidId
		long id;

		String title;

	}

	record Note(@Id Long id, String text) {
	}

	record Badly(@Id @UidId String id) {
	}

	@Test
	void aNewImmutableAggregateGetsACopyWithItsId() {
		Invoice saved = (Invoice) this.callback.onBeforeConvert(new Invoice(null, "acme"));
		assertThat(saved.id()).isPositive();
		assertThat(saved.customer()).isEqualTo("acme");
		assertThat(this.generator.decode(saved.id()).workerId()).isEqualTo(3);
	}

	@Test
	void aNewMutableAggregateWithAPrimitiveIdIsFilledInPlace() {
		Ticket ticket = new Ticket();
		Object saved = this.callback.onBeforeConvert(ticket);
		assertThat(saved).isSameAs(ticket);
		assertThat(ticket.id).isPositive();
	}

	@Test
	void successiveAggregatesGetIncreasingIds() {
		long first = ((Invoice) this.callback.onBeforeConvert(new Invoice(null, "a"))).id();
		long second = ((Invoice) this.callback.onBeforeConvert(new Invoice(null, "b"))).id();
		assertThat(second).isGreaterThan(first);
	}

	@Test
	void anIdAlreadySetIsKept() {
		Invoice existing = new Invoice(42L, "acme");
		assertThat(this.callback.onBeforeConvert(existing)).isSameAs(existing);
	}

	@Test
	void anIdWithoutTheAnnotationIsLeftToTheDatabase() {
		Note note = new Note(null, "hello");
		assertThat(this.callback.onBeforeConvert(note)).isSameAs(note);
	}

	@Test
	void anAnnotatedIdThatIsNotALongIsRefusedWithTheFix() {
		assertThatIllegalStateException().isThrownBy(() -> this.callback.onBeforeConvert(new Badly(null)))
			.withMessageContaining("Badly.id is java.lang.String")
			.withMessageContaining("change the ID's type to Long");
	}

}
