-- SiteObject storage, version 5: the site this object serves. Objects are addressed by the site id
-- (getByName), but an object woken cold by its alarm is not given that name (ctx.id.name is
-- undefined), so the id is kept here the first time it is known; the alarm reads it from here.
CREATE TABLE site_identity (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  site_id TEXT NOT NULL
);
