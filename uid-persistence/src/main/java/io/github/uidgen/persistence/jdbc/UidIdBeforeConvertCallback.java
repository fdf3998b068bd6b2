package io.github.uidgen.persistence.jdbc;

import java.util.function.Supplier;

import io.github.uidgen.UidGenerator;
import io.github.uidgen.persistence.UidId;

import org.springframework.core.Ordered;
import org.springframework.data.mapping.PersistentPropertyAccessor;
import org.springframework.data.mapping.context.MappingContext;
import org.springframework.data.relational.core.mapping.RelationalPersistentEntity;
import org.springframework.data.relational.core.mapping.RelationalPersistentProperty;
import org.springframework.data.relational.core.mapping.event.BeforeConvertCallback;

/**
 * Gives a new Spring Data JDBC aggregate whose {@code @Id} carries {@link UidId} its ID from the
 * {@link UidGenerator} before the insert.
 *
 * <p>Spring Data JDBC decides whether to insert or update from the ID as it was passed to {@code save}, before this
 * callback runs, so an aggregate saved with a {@code null} (or {@code 0}) ID is inserted with the ID set here. An
 * ID that is already set is left alone. Immutable aggregates (records, {@code with…} methods) get a new instance.
 */
public final class UidIdBeforeConvertCallback implements BeforeConvertCallback<Object>, Ordered {

	private final Supplier<? extends MappingContext<? extends RelationalPersistentEntity<?>, ? extends RelationalPersistentProperty>> mappingContext;

	private final Supplier<UidGenerator> uidGenerator;

	/**
	 * Creates the callback; both collaborators are looked up at the first save.
	 * @param mappingContext the mapping context of the aggregates
	 * @param uidGenerator the generator of the IDs
	 */
	public UidIdBeforeConvertCallback(
			Supplier<? extends MappingContext<? extends RelationalPersistentEntity<?>, ? extends RelationalPersistentProperty>> mappingContext,
			Supplier<UidGenerator> uidGenerator) {
		this.mappingContext = mappingContext;
		this.uidGenerator = uidGenerator;
	}

	@Override
	public Object onBeforeConvert(Object aggregate) {
		RelationalPersistentEntity<?> entity = this.mappingContext.get().getPersistentEntity(aggregate.getClass());
		if (entity == null) {
			return aggregate;
		}
		RelationalPersistentProperty id = entity.getIdProperty();
		if (id == null || !id.isAnnotationPresent(UidId.class)) {
			return aggregate;
		}
		Class<?> type = id.getType();
		if (type != Long.class && type != Long.TYPE) {
			throw new IllegalStateException("@UidId needs a long or Long ID, but " + entity.getName() + "."
					+ id.getName() + " is " + type.getName() + "; change the ID's type to Long.");
		}
		PersistentPropertyAccessor<Object> accessor = entity.getPropertyAccessor(aggregate);
		Object current = accessor.getProperty(id);
		if (current != null && ((Long) current) != 0L) {
			return aggregate;
		}
		accessor.setProperty(id, this.uidGenerator.get().getUID());
		return accessor.getBean();
	}

	/** Runs before the user's own callbacks, so they see the ID. */
	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE + 100;
	}

}
