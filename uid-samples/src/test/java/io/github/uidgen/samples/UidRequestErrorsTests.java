package io.github.uidgen.samples;

import io.github.uidgen.UidGenerator;
import io.github.uidgen.UidLayout;
import io.github.uidgen.UidUnavailableException;
import io.github.uidgen.text.UidFormats;
import org.junit.jupiter.api.Test;

import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;

import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * A generator that cannot issue an ID reaches the client as 503 with the generator's reason, on both endpoints.
 */
class UidRequestErrorsTests {

	private final MockMvc mvc = MockMvcBuilders.standaloneSetup(new UidController(new UnavailableGenerator(),
			UidFormats.standalone()))
		.setControllerAdvice(new UidRequestErrors())
		.build();

	@Test
	void singleUidAnswersServiceUnavailableWithReason() throws Exception {
		this.mvc.perform(get("/uid"))
			.andExpect(status().isServiceUnavailable())
			.andExpect(jsonPath("$.detail").value("lease of worker 7 lost"));
	}

	@Test
	void batchAnswersServiceUnavailableWithReason() throws Exception {
		this.mvc.perform(get("/uid/batch").param("size", "5"))
			.andExpect(status().isServiceUnavailable())
			.andExpect(jsonPath("$.detail").value("lease of worker 7 lost"));
	}

	@Test
	void badSizeIsCheckedBeforeAnyIdIsTaken() throws Exception {
		this.mvc.perform(get("/uid/batch").param("size", "0"))
			.andExpect(status().isBadRequest())
			.andExpect(jsonPath("$.parameter").value("size"));
	}

	private static final class UnavailableGenerator implements UidGenerator {

		@Override
		public long getUID() {
			throw new UidUnavailableException("lease of worker 7 lost");
		}

		@Override
		public UidLayout layout() {
			return UidLayout.defaults();
		}

	}

}
