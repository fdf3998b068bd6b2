package io.github.uidgen.mybatisplus.app;

import com.baomidou.mybatisplus.core.mapper.BaseMapper;
import org.apache.ibatis.annotations.Mapper;

/** The MyBatis-Plus mapper of {@link Order}. */
@Mapper
public interface OrderMapper extends BaseMapper<Order> {

}
