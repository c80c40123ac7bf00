// The playground's files (docs/playground.md): the page at / and its scripts and styles,
// embedded in the binary, served at the root and under the base path.
#include "api/handlers/handlers.hpp"

namespace toolcalc::api::handlers {

// GET and HEAD (the transport drops HEAD's body; its row's method), 304 when the client's
// copy is current.
void asset(HandlerEnv& env, ServiceContext& ctx) {
  const StaticAsset* a = env.bodies.assets.find(ctx.route.slug);
  if (!a) return ctx.fail(not_found("no such path"));
  ctx.revalidate = true;
  ctx.res.set_header("ETag", a->etag);
  ctx.res.set_header("Content-Security-Policy", std::string(kPlaygroundCsp));
  ctx.res.set_header("X-Content-Type-Options", "nosniff");
  ctx.res.set_header("Referrer-Policy", "no-referrer");
  if (!ctx.req.if_none_match.empty() && etag_matches(ctx.req.if_none_match, a->etag)) {
    ctx.res.status = 304;
    return;
  }
  ctx.res.status = 200;
  ctx.res.content_type = a->content_type;
  ctx.res.body_prefix = a->body;  // the assets live as long as the Service
}

}  // namespace toolcalc::api::handlers
