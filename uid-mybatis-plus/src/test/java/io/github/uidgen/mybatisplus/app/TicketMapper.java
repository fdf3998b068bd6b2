package io.github.uidgen.mybatisplus.app;

import com.baomidou.mybatisplus.core.mapper.BaseMapper;
import org.apache.ibatis.annotations.Mapper;

/** The MyBatis-Plus mapper of {@link Ticket}. */
@Mapper
public interface TicketMapper extends BaseMapper<Ticket> {

}
