package io.github.uidgen.jackson;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.DatabindException;
import tools.jackson.databind.exc.InvalidDefinitionException;
import tools.jackson.databind.exc.InvalidFormatException;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * IDs above 2^53 written by Jackson as strings, per field or for every long, and read back from strings and numbers.
 */
class UidJacksonTests {

	/** 2^53 + 1: the first integer a JavaScript number cannot hold. */
	private static final long ABOVE_JS_RANGE = 9_007_199_254_740_993L;

	private static final long ID = 250_085_535_756_849_152L;

	private final JsonMapper plain = JsonMapper.builder().build();

	private final JsonMapper allLongs = JsonMapper.builder().addModule(UidJacksonModule.allLongsAsStrings()).build();

	record Order(@UidAsString long id, @UidAsString Long parentId, long quantity, String item) {
	}

	static class Line {

		@UidAsString
		private Long id;

		private long count;

		public Long getId() {
			return this.id;
		}

		public void setId(Long id) {
			this.id = id;
		}

		public long getCount() {
			return this.count;
		}

		public void setCount(long count) {
			this.count = count;
		}

	}

	record Batch(@UidAsString List<Long> ids, @UidAsString Set<Long> seen, @UidAsString long[] primitive,
			@UidAsString Long[] boxed, @UidAsString Optional<Long> parent, @UidAsString Map<String, Long> byName,
			List<Long> counts) {
	}

	@Test
	void everyIdOfAnAnnotatedCollectionArrayOptionalOrMapIsAString() {
		Batch batch = new Batch(List.of(ID, ABOVE_JS_RANGE), Set.of(ID), new long[] { ID, 1 },
				new Long[] { ABOVE_JS_RANGE, null }, Optional.of(ID), Map.of("first", ID), List.of(3L));
		String json = this.plain.writeValueAsString(batch);
		assertThat(json).isEqualTo("{\"ids\":[\"250085535756849152\",\"9007199254740993\"],"
				+ "\"seen\":[\"250085535756849152\"],\"primitive\":[\"250085535756849152\",\"1\"],"
				+ "\"boxed\":[\"9007199254740993\",null],\"parent\":\"250085535756849152\","
				+ "\"byName\":{\"first\":\"250085535756849152\"},\"counts\":[3]}");
		Batch read = this.plain.readValue(json, Batch.class);
		assertThat(read.ids()).containsExactly(ID, ABOVE_JS_RANGE);
		assertThat(read.seen()).containsExactly(ID);
		assertThat(read.primitive()).containsExactly(ID, 1);
		assertThat(read.boxed()).containsExactly(ABOVE_JS_RANGE, null);
		assertThat(read.parent()).contains(ID);
		assertThat(read.byName()).containsExactlyEntriesOf(Map.of("first", ID));
		assertThat(read.counts()).containsExactly(3L);
	}

	@Test
	void anEmptyOptionalAndEmptyCollectionsStayEmpty() {
		Batch batch = new Batch(List.of(), Set.of(), new long[0], new Long[0], Optional.empty(), Map.of(), List.of());
		String json = this.plain.writeValueAsString(batch);
		assertThat(json).isEqualTo("{\"ids\":[],\"seen\":[],\"primitive\":[],\"boxed\":[],\"parent\":null,"
				+ "\"byName\":{},\"counts\":[]}");
		assertThat(this.plain.readValue(json, Batch.class).parent()).isEmpty();
	}

	record Nested(@UidAsString List<List<Long>> groups) {
	}

	@Test
	void idsNestedInCollectionsAreStringsAtEveryDepth() {
		String json = this.plain.writeValueAsString(new Nested(List.of(List.of(ID), List.of())));
		assertThat(json).isEqualTo("{\"groups\":[[\"250085535756849152\"],[]]}");
		assertThat(this.plain.readValue(json, Nested.class).groups()).containsExactly(List.of(ID), List.of());
	}

	record Named(@UidAsString String name) {
	}

	record Names(@UidAsString List<String> names) {
	}

	@Test
	void aPropertyThatHoldsNoIdsIsRefusedWithTheReason() {
		assertThatExceptionOfType(InvalidDefinitionException.class)
			.isThrownBy(() -> this.plain.writeValueAsString(new Named("x")))
			.withMessageContaining("@UidAsString applies to long and Long IDs")
			.withMessageContaining("property 'name' is a java.lang.String");
		assertThatExceptionOfType(InvalidDefinitionException.class)
			.isThrownBy(() -> this.plain.readValue("{\"names\":[\"a\"]}", Names.class))
			.withMessageContaining("property 'names' is a java.util.List<java.lang.String>");
	}

	@Test
	void textThatIsNotADecimalIdIsRefusedWithTheReason() {
		assertThatExceptionOfType(InvalidFormatException.class)
			.isThrownBy(() -> this.plain.readValue("{\"ids\":[\"1\",\"12x\"]}", Batch.class))
			.withMessageContaining("\"12x\"")
			.withMessageContaining("not a decimal ID");
		assertThatExceptionOfType(DatabindException.class)
			.isThrownBy(() -> this.plain.readValue("{\"primitive\":[\"1\",99999999999999999999]}", Batch.class))
			.withMessageContaining("out of the range of a long ID");
		assertThatExceptionOfType(DatabindException.class)
			.isThrownBy(() -> this.plain.readValue("{\"primitive\":[null]}", Batch.class))
			.withMessageContaining("null in an array of IDs");
	}

	@Test
	void annotatedIdsAreWrittenAsStringsAndOtherLongsAsNumbers() {
		String json = this.plain.writeValueAsString(new Order(ID, ABOVE_JS_RANGE, 3, "book"));
		assertThat(json).isEqualTo(
				"{\"id\":\"250085535756849152\",\"parentId\":\"9007199254740993\",\"quantity\":3,\"item\":\"book\"}");
	}

	@Test
	void aMissingWrapperIdStaysNull() {
		assertThat(this.plain.writeValueAsString(new Order(ID, null, 1, "pen"))).contains("\"parentId\":null");
	}

	@Test
	void annotatedIdsAreReadFromStringsAndFromNumbers() {
		Order fromStrings = this.plain.readValue(
				"{\"id\":\"250085535756849152\",\"parentId\":\"9007199254740993\",\"quantity\":3,\"item\":\"book\"}",
				Order.class);
		Order fromNumbers = this.plain.readValue(
				"{\"id\":250085535756849152,\"parentId\":9007199254740993,\"quantity\":3,\"item\":\"book\"}",
				Order.class);
		assertThat(fromStrings).isEqualTo(new Order(ID, ABOVE_JS_RANGE, 3, "book")).isEqualTo(fromNumbers);
	}

	@Test
	void annotatedBeanPropertiesRoundTrip() {
		Line line = new Line();
		line.setId(ABOVE_JS_RANGE);
		line.setCount(2);
		String json = this.plain.writeValueAsString(line);
		assertThat(json).isEqualTo("{\"count\":2,\"id\":\"9007199254740993\"}");
		assertThat(this.plain.readValue(json, Line.class).getId()).isEqualTo(ABOVE_JS_RANGE);
	}

	@Test
	void theModuleWritesEveryLongAsAString() {
		String json = this.allLongs.writeValueAsString(new Order(ID, ABOVE_JS_RANGE, 3, "book"));
		assertThat(json).isEqualTo(
				"{\"id\":\"250085535756849152\",\"parentId\":\"9007199254740993\",\"quantity\":\"3\",\"item\":\"book\"}");
		assertThat(this.allLongs.writeValueAsString(List.of(ID, 7L))).isEqualTo("[\"250085535756849152\",\"7\"]");
		assertThat(this.allLongs.writeValueAsString(new long[] { ID })).isEqualTo("[\"250085535756849152\"]");
	}

	@Test
	void theModuleLeavesOtherNumbersAlone() {
		assertThat(this.allLongs.writeValueAsString(List.of(1, 2.5))).isEqualTo("[1,2.5]");
	}

	@Test
	void theModuleReadsStringsAndNumbersBack() {
		Order order = this.allLongs.readValue(
				"{\"id\":\"250085535756849152\",\"parentId\":9007199254740993,\"quantity\":\"3\",\"item\":\"book\"}",
				Order.class);
		assertThat(order).isEqualTo(new Order(ID, ABOVE_JS_RANGE, 3, "book"));
	}

}
