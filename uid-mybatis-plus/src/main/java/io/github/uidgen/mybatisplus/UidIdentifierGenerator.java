package io.github.uidgen.mybatisplus;

import com.baomidou.mybatisplus.core.incrementer.IdentifierGenerator;
import io.github.uidgen.InvalidSettingException;
import io.github.uidgen.UidGenerator;
import io.github.uidgen.segment.SegmentUidGenerators;

/**
 * The MyBatis-Plus {@link IdentifierGenerator} behind {@code @TableId(type = IdType.ASSIGN_ID)}: each inserted entity
 * whose key is {@code null}, {@code 0} or empty gets the next ID of the application's {@link UidGenerator}
 * ({@code Long}, {@code long} and {@code String} keys; MyBatis-Plus converts the number to the key's type). A key
 * that is already set is left alone.
 *
 * <p>With {@code uid.generator=segment}, an entity class annotated {@link UidSegmentKey} gets the numbers of its own
 * key from the {@link SegmentUidGenerators}; other entities get those of the {@code UidGenerator}.
 *
 * <p>The Spring Boot starter registers one as a bean when MyBatis-Plus is on the classpath, and MyBatis-Plus uses
 * the single {@code IdentifierGenerator} bean it finds instead of its own Snowflake.
 */
public final class UidIdentifierGenerator implements IdentifierGenerator {

	/** The segment key of each entity class, {@code ""} for none; looked up once per class. */
	private static final ClassValue<String> SEGMENT_KEYS = new ClassValue<>() {

		@Override
		protected String computeValue(Class<?> type) {
			UidSegmentKey key = type.getAnnotation(UidSegmentKey.class);
			return (key != null) ? key.value() : "";
		}

	};

	private final UidGenerator uidGenerator;

	private final SegmentUidGenerators segmentGenerators;

	private volatile LastType lastType;

	/**
	 * Creates a generator that gives every entity an ID of the given generator.
	 * @param uidGenerator the application's generator
	 */
	public UidIdentifierGenerator(UidGenerator uidGenerator) {
		this(uidGenerator, null);
	}

	/**
	 * Creates a generator that gives entities annotated {@link UidSegmentKey} the numbers of their key.
	 * @param uidGenerator the generator of the entities without a segment key
	 * @param segmentGenerators the segment generators by key, or {@code null} when the application has none
	 */
	public UidIdentifierGenerator(UidGenerator uidGenerator, SegmentUidGenerators segmentGenerators) {
		this.uidGenerator = uidGenerator;
		this.segmentGenerators = segmentGenerators;
	}

	/** A key of {@code 0} (a primitive {@code long}) or {@code ""} counts as not set, as {@code null} does. */
	@Override
	public boolean assignId(Object idValue) {
		if (idValue == null) {
			return true;
		}
		if (idValue instanceof Number number) {
			return number.longValue() == 0L;
		}
		return idValue instanceof CharSequence text && text.isEmpty();
	}

	@Override
	public Long nextId(Object entity) {
		String key = (entity != null) ? segmentKey(entity.getClass()) : "";
		if (key.isEmpty()) {
			return this.uidGenerator.getUID();
		}
		return segmentGenerator(key, entity.getClass()).getUID();
	}

	/**
	 * The segment key of an entity class. Inserts mostly repeat one entity class, so the last answer is kept in one
	 * immutable holder read with one volatile read; other classes go to the {@code ClassValue}.
	 */
	private String segmentKey(Class<?> type) {
		LastType last = this.lastType;
		if (last != null && last.type == type) {
			return last.key;
		}
		String key = SEGMENT_KEYS.get(type);
		this.lastType = new LastType(type, key);
		return key;
	}

	/** An entity class and its segment key, replaced whole so a reader never pairs a class with another's key. */
	private record LastType(Class<?> type, String key) {
	}

	private UidGenerator segmentGenerator(String key, Class<?> entityType) {
		if (this.segmentGenerators == null) {
			throw new IllegalStateException("@UidSegmentKey(\"" + key + "\") on " + entityType.getName()
					+ " needs the segment generator, but this application has none; set uid.generator=segment, or "
					+ "remove the annotation to give the entity IDs of the application's UidGenerator.");
		}
		try {
			return this.segmentGenerators.forKey(key);
		}
		catch (InvalidSettingException ex) {
			throw new IllegalStateException("@UidSegmentKey(\"" + key + "\") on " + entityType.getName()
					+ " is not a valid segment key; " + ex.getFix() + ".", ex);
		}
	}

}
