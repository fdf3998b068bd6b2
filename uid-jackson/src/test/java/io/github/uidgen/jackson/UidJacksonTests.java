package io.github.uidgen.jackson;

import java.util.List;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

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
